/**
 * A registry entry no command module answers is still on the command line: its operand, its
 * other parameters as options, its input parsed as every face parses it, its answer printed.
 */
import {
  defineCapability,
  domainInput,
  healthDataSchema,
  type Netdiag,
  parameters,
} from '@netdiag/core';
import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import {
  registerRegistryCommands,
  registryCommand,
  renderFields,
} from '../src/commands/from-registry.js';
import { EXIT } from '../src/exit-codes.js';
import { captureIO } from './helpers.js';

/** A capability that answers with the parameters it was given, so nothing is asked. */
const echo = defineCapability({
  id: 'echoParams',
  params: parameters({
    domain: domainInput().describe('the domain'),
    // Any documented form will do: the text rule parses it.
    dkim_selector: domainInput().optional().describe('selectors'),
  }),
  // The CLI does not check answers against `data`; any schema will do here.
  data: healthDataSchema,
  limit: 'general',
  run: async (_engine, params) => ({ got: params }),
  cli: { command: 'echo-params', operand: 'domain' },
});

async function runEcho(argv: string[]) {
  const capture = captureIO();
  capture.io.engine = () => ({ close: async () => {} }) as unknown as Netdiag;
  const exit = { code: EXIT.ok as number };
  const program = new Command('netdiag').exitOverride();
  registryCommand(program, { io: capture.io, exit }, echo);
  await program.parseAsync(argv, { from: 'user' });
  return { code: exit.code, out: capture.stdout(), err: capture.stderr() };
}

describe('commands made from the registry', () => {
  test('the operand and the options reach the capability, parsed; the answer is printed', async () => {
    const r = await runEcho(['echo-params', 'example.com', '--dkim-selector', 's1,s2']);
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(r.out).toContain('got.domain: example.com');
    expect(r.out).toContain('got.dkim_selector: s1,s2');
    const json = await runEcho(['echo-params', 'example.com', '--json']);
    expect(JSON.parse(json.out)).toEqual({ got: { domain: 'example.com' } });
  });

  test('a value the schema refuses is bad input, in the words of every face', async () => {
    const r = await runEcho(['echo-params', 'x'.repeat(2049)]);
    expect(r.code).toBe(EXIT.badInput);
    // The CLI names the parameter as its operand ("the domain"), the rest is the schema's message.
    expect(r.err).toContain('the domain is too long (at most 2048 characters)');
  });

  test('a module’s command is kept; a flag variant is not a command of its own', () => {
    const program = new Command('netdiag');
    program.command('echo-params');
    const io = captureIO().io;
    registerRegistryCommands(program, { io, exit: { code: 0 } }, [
      echo,
      { ...echo, id: 'other', cli: { command: 'other', operand: 'domain', flag: '--v1' } },
    ]);
    expect(program.commands.map((c) => c.name())).toEqual(['echo-params']);
  });

  test('answers print one line per field', () => {
    expect(renderFields({ a: 1, b: { c: ['x', 'y'] }, d: [{ e: null }] })).toBe(
      'a: 1\nb.c: x, y\nd[0].e: null',
    );
  });
});
