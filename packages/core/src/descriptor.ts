/**
 * The capability descriptor: what every face needs to offer one operation, in one object in the
 * capability's folder (`<capability>/capability.ts`). The registry (`registry.ts`) lists them;
 * the HTTP routes and their OpenAPI entries, the MCP tools and the docs' tool table are made
 * from it, so a face holds only what is truly its own (the page, rate limits, terminal layout).
 *
 * Every face reads its input with `parseParams(descriptor.params, raw)` and answers with
 * `descriptor.run(engine, params, context)`: the same input is accepted or refused alike, in the
 * same words, over HTTP, MCP and the CLI.
 * @module
 */
import type { z } from 'zod';
import type { CallerConnection } from './caller/connection.js';
import type { Netdiag, ScanCallOptions } from './engine/engine.js';

/**
 * What a call knows besides its parameters: the engine call's options (`signal`, `timeout`;
 * `limited: false` from the CLI, whose local runs skip the server's limiters).
 */
export interface CapabilityContext extends ScanCallOptions {
  /**
   * The caller's own connection, when the face has one (HTTP, MCP over HTTP): what `/api/ip`
   * describes, and what `scan_ports` scans when no host is given.
   */
  caller?: CallerConnection;
}

/** Which per-client rate limit a call counts against (CONTRACT §3). */
export type RateLimitKind = 'general' | 'tool';

/** The operation as an HTTP route and its OpenAPI entry. */
export interface HttpFace {
  method: 'get' | 'post';
  /** Express path; `:name` segments are path parameters (`/api/v1/dns/:domain`). */
  path: string;
  tag: string;
  summary: string;
  description: string;
  /** Example values of the parameters (query, path or body). */
  paramExamples?: Record<string, unknown>;
  /** An answer's `data`, for the document (a test checks it against `data`). */
  example: unknown;
  /** Error statuses the route can answer with (429 and 500 are added for every /api route). */
  errors: number[];
  /** Statuses besides 200 answered with the success envelope, and what they mean. */
  dataStatuses?: Record<number, string>;
}

/** The operation as a tool for agents (MCP). */
export interface ToolFace {
  /** snake_case tool name. */
  name: string;
  title: string;
  /** What the tool answers and when to use it, for the model choosing a tool. */
  description: string;
  /** Connects to a target the user names: the SSRF guard applies. */
  probe: boolean;
  /** Reaches the network at all (DNS, registries, the target); false for the embedded data. */
  openWorld: boolean;
}

/** The operation as a CLI command (`packages/cli/src/commands/`). */
export interface CliFace {
  /** The command that answers it: `whois`. Operations may share one, told apart by `flag`. */
  command: string;
  /** The flag that selects this operation on a shared command: `--rdap-only`, `--v1`. */
  flag?: string;
  /** The parameter the operands give (`domain`); the other parameters are `--name` options. */
  operand: string;
}

export interface Capability<P extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  /** Stable id, the OpenAPI operationId: `dnsLookupV1`. */
  id: string;
  /** The parameters, parsed by every face (`parseParams`) and published in their forms. */
  params: P;
  /** The answer (`data` of the HTTP envelope, structured content of the tool). */
  data: D;
  /**
   * The per-client rate limit a call counts against, on the HTTP route and the tool alike:
   * `general` is the limit over every request, `tool` the stricter tool limit as well
   * (`NETDIAG_TOOL_RATE_LIMIT`).
   */
  limit: RateLimitKind;
  run(engine: Netdiag, params: z.output<P>, context: CapabilityContext): Promise<unknown>;
  http?: HttpFace;
  tool?: ToolFace;
  cli?: CliFace;
}

/** A descriptor with its types kept (`params` in `run` is the schema's output). */
export function defineCapability<P extends z.ZodType, D extends z.ZodType>(
  capability: Capability<P, D>,
): Capability<P, D> {
  return capability;
}

/**
 * The deepest JSON body a face reads (`{"ips": [...]}` needs 2). Anything deeper is refused
 * before it is parsed, so no recursive step (parse, stringify, validation) meets a body thousands
 * of levels deep (issue 20 item 4: 5,000 nested arrays in 10 KB overflowed JSON.stringify's stack).
 */
export const MAX_BODY_DEPTH = 32;
