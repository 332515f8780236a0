/**
 * A command's engine call through core's registry, the way every face makes it: the input is
 * read by the capability's parameter schema (`parseParams`, so a bad value gets the words the
 * HTTP API and the MCP tool give), then the descriptor's `run`. Core's root entry (zod and the
 * schemas) is imported on the first call, not at start: `netdiag --version` and `--help` never
 * load it.
 * @module
 */
import type { Netdiag, ScanCallOptions } from '@netdiag/core/capabilities';

type Core = typeof import('@netdiag/core');
type Capability = Core['CAPABILITIES'][number];

let core: Promise<Core> | undefined;
const loadCore = () => {
  core ??= import('@netdiag/core');
  return core;
};

async function capability(id: string) {
  const found = (await loadCore()).findCapability(id);
  if (found === undefined) throw new Error(`no capability ${id} in the registry`);
  return found;
}

/** The capability's parameters from `input`, parsed as every face parses them. */
export async function capabilityParams(
  id: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { parseParams } = await loadCore();
  return parseParams((await capability(id)).params, input) as Record<string, unknown>;
}

/** Runs capability `id` of the registry on `input` (operands and options by parameter name). */
export async function callCapability<T>(
  id: string,
  engine: Netdiag,
  input: Record<string, unknown>,
  call: ScanCallOptions,
): Promise<T> {
  return runCapability<T>(await capability(id), engine, input, call);
}

/** Runs a descriptor on `input`: parsed by its schema, then its `run`. */
export async function runCapability<T>(
  descriptor: Capability,
  engine: Netdiag,
  input: Record<string, unknown>,
  call: ScanCallOptions,
): Promise<T> {
  const { parseParams } = await loadCore();
  return (await descriptor.run(engine, parseParams(descriptor.params, input), call)) as T;
}
