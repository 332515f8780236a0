/**
 * Commands made from core's registry: a descriptor whose `cli` face names a command no module
 * registers gets a plain one — its operands are the `operand` parameter, every other parameter
 * is a `--name value` option (`dkim_selector` → `--dkim-selector`), the input is parsed and run
 * as every face does (`callCapability`), and the answer is printed field by field (or in any
 * `--format`). A module in this folder replaces it when a command deserves its own habits and
 * layout (dig's for `dns`, the tables of `tls`). So a new capability is on the command line with
 * its folder and its registry line alone.
 * @module
 */
import type { Capability } from '@netdiag/core';
import type { Command } from 'commander';
import { runCapability } from '../capability-call.js';
import { type CommandContext, targetCommand } from '../command.js';

const flagOf = (name: string) => `--${name.replaceAll('_', '-')}`;
/** Commander's key for `--dkim-selector`: `dkimSelector`. */
const keyOf = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The parameters of a descriptor, in its schema's order, with their descriptions. */
function parametersOf(capability: Capability): [name: string, description: string][] {
  const shape = (
    capability.params as unknown as { shape?: Record<string, { description?: string }> }
  ).shape;
  return Object.entries(shape ?? {}).map(([name, schema]) => [name, schema.description ?? '']);
}

/** One line per leaf: `network.asn: 15169`; lists of plain values joined by commas. */
export function renderFields(data: unknown, prefix = ''): string {
  if (data === null || typeof data !== 'object') return `${prefix || 'value'}: ${String(data)}`;
  if (Array.isArray(data) && data.every((v) => v === null || typeof v !== 'object')) {
    return `${prefix || 'value'}: ${data.join(', ')}`;
  }
  const entries = Array.isArray(data)
    ? data.map((v, i) => [`${prefix}[${i}]`, v] as const)
    : Object.entries(data).map(([k, v]) => [prefix ? `${prefix}.${k}` : k, v] as const);
  return entries.map(([path, value]) => renderFields(value, path)).join('\n');
}

/** Registers the plain command of `capability` on `program`. */
export function registryCommand(
  program: Command,
  ctx: CommandContext,
  capability: Capability,
): Command {
  const face = capability.cli;
  if (!face) throw new Error(`capability ${capability.id} has no CLI face`);
  const params = parametersOf(capability);
  const operand = params.find(([name]) => name === face.operand);
  const options = params.filter(([name]) => name !== face.operand);
  return targetCommand<unknown, Record<string, string | undefined>>(program, ctx, {
    name: face.command,
    description: capability.http?.summary ?? capability.tool?.title ?? capability.id,
    operand: { name: face.operand, help: operand?.[1] || face.operand, words: true },
    configure: (command) => {
      for (const [name, description] of options) {
        command.option(`${flagOf(name)} <value>`, description);
      }
    },
    probe: capability.tool?.probe ?? false,
    run: (engine, target, flags, { call }) =>
      runCapability(
        capability,
        engine,
        {
          [face.operand]: target,
          ...Object.fromEntries(options.map(([name]) => [name, flags[keyOf(name)]])),
        },
        call,
      ),
    text: (data) => renderFields(data),
    words: Object.fromEntries(options.map(([name]) => [name, flagOf(name)])),
  });
}

/**
 * The registry's commands that no module registered: called after the modules, with the
 * registry (core's root entry, loaded with the commands).
 */
export function registerRegistryCommands(
  program: Command,
  ctx: CommandContext,
  capabilities: readonly Capability[],
): void {
  const taken = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  for (const capability of capabilities) {
    const face = capability.cli;
    if (!face || face.flag || taken.has(face.command)) continue;
    registryCommand(program, ctx, capability);
    taken.add(face.command);
  }
}
