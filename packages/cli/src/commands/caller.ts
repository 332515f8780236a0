/**
 * `netdiag ip [address]`, `netdiag score [address]` and `netdiag breach <email>`: the same data
 * as `GET /api/ip`, `/api/score` and `/api/breach`, from the terminal.
 * @module
 */
import type { BreachResult } from '@netdiag/core';
import {
  type AppContext,
  closeContext,
  createContext,
  loadConfig,
  runBreachCheck,
} from '@netdiag/http';
import { type CliIO, output } from '../io.js';
import type { RegisterCommand } from './types.js';

/** Builds the app context from the environment, runs `task`, and always cleans up. */
async function withContext<T>(io: CliIO, task: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = createContext(loadConfig(io.env));
  try {
    return await task(ctx);
  } finally {
    await closeContext(ctx);
  }
}

export const registerCaller: RegisterCommand = (program, { io }) => {
  program
    .command('breach')
    .description('check an email address against known data breaches (XposedOrNot)')
    .argument('<email>', 'the address to check; it is sent to the breach database, never logged')
    .option('--json', 'print the API data object')
    .action(async (email: string, opts: { json?: boolean }) => {
      const data = await withContext(io, (ctx) => runBreachCheck(ctx, email));
      output(io, opts.json === true, data, renderBreach);
    });
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 'es'}`;
}

export function renderBreach(data: BreachResult): string {
  if (data.breaches === 0) return `${data.email}: not found in any known breach`;
  const p = data.passwords;
  return [
    `${data.email}: found in ${plural(data.breaches, 'breach')} (risk ${data.risk.level}, ${data.risk.score}/100)`,
    `Services:  ${data.services.join(', ')}`,
    `Passwords: ${p.plain_text} plain text, ${p.weak_hash} weakly hashed, ${p.strong_hash} strongly hashed, ${p.unknown} unknown`,
  ].join('\n');
}
