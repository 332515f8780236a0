/**
 * The capabilities as tools for AI agents: one row per registry descriptor with a `tool` face.
 * `@netdiag/mcp` turns each row into an MCP tool; a tool answers exactly the HTTP `data`, its
 * arguments read by the same `parseParams`.
 * @module
 */
import type { z } from 'zod';
import type { Capability, CapabilityContext, RateLimitKind } from '../descriptor.js';
import type { Netdiag } from '../engine/engine.js';
import { CAPABILITIES } from '../registry.js';
import { parseParams } from '../schemas/param.js';
import { summaries } from './summaries.js';

/** What a tool call knows besides its input. */
export type ToolContext = CapabilityContext;

export interface ToolDefinition {
  /** snake_case tool name. */
  name: string;
  title: string;
  /** What the tool answers and when to use it, for the model choosing a tool. */
  description: string;
  /** The HTTP operation whose `data` the tool returns (and whose parameters it takes). */
  operationId: string | null;
  /** The arguments (the descriptor's parameters): `run` parses them, so a face need not. */
  input: z.ZodType<Record<string, unknown>>;
  output: z.ZodType<Record<string, unknown>>;
  /** Connects to a target the user names: the SSRF guard applies. */
  probe: boolean;
  /** The per-client rate limit a call counts against, over MCP and HTTP alike. */
  limit: RateLimitKind;
  /** Reaches the network at all (DNS, registries, the target); false for the embedded data. */
  openWorld: boolean;
  run(engine: Netdiag, input: Record<string, unknown>, context: ToolContext): Promise<unknown>;
  /** One or two lines for a person reading the agent's transcript. */
  summary(data: never): string;
}

function toolOf(capability: Capability): ToolDefinition {
  const face = capability.tool;
  if (!face) throw new Error(`capability ${capability.id} has no tool face`);
  const summary = summaries[face.name];
  if (!summary) throw new Error(`tool ${face.name} has no summary`);
  return {
    ...face,
    operationId: capability.http ? capability.id : null,
    input: capability.params as z.ZodType<Record<string, unknown>>,
    output: capability.data as z.ZodType<Record<string, unknown>>,
    limit: capability.limit,
    run: (engine, input, context) =>
      capability.run(engine, parseParams(capability.params, input), context),
    summary: summary as ToolDefinition['summary'],
  };
}

/** Every tool, in the order agents see them (the registry's). */
export const NETDIAG_TOOLS: readonly ToolDefinition[] = CAPABILITIES.filter(
  (capability) => capability.tool,
).map(toolOf);

/**
 * The rate limit an HTTP operation counts against (its descriptor's `limit`): the HTTP face's
 * limiter and its `/mcp` route both ask, so a route and its tool cannot count differently.
 */
export function operationLimit(operationId: string): RateLimitKind {
  return CAPABILITIES.find((entry) => entry.id === operationId)?.limit ?? 'general';
}

/** A tool by name. */
export function findTool(name: string): ToolDefinition | undefined {
  return NETDIAG_TOOLS.find((entry) => entry.name === name);
}
