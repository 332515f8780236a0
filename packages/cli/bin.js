#!/usr/bin/env node
import { run } from './dist/index.js';

// A reader that goes away (`netdiag bulk - | head -1`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

// Ctrl-C: 130 without a stack trace. Commands with their own handler (a batch aborts what is in
// flight, `serve` closes gracefully) are left to it.
process.on('SIGINT', () => {
  if (process.listenerCount('SIGINT') === 1) process.exit(130);
});

const code = await run(process.argv.slice(2));
// Interrupted: leave at once (sockets still closing must not hold the terminal).
if (code === 130) process.exit(code);
process.exitCode = code;
