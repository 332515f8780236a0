/**
 * @module
 * `@netdiag/core`: the netdiag engine and the capabilities it is made of.
 *
 * - `createNetdiag(config)` answers every endpoint of the HTTP API with exactly its `data`,
 *   over one resolver, one set of caches, the IP datasets and the data feeds.
 * - Each capability is also a function of its own, `fn(input, options)`, with `signal`,
 *   `timeout` and injectable seams.
 * - Every answer's shape is a zod schema (`ENDPOINT_SCHEMAS`), the source of the TypeScript
 *   types, the OpenAPI document and the MCP tool schemas.
 *
 * The public API is the list in `capabilities.ts` (also its own entry,
 * `@netdiag/core/capabilities`, for processes that need no schemas) and the two below;
 * `etc/core.api.md` records it (api-extractor), so every change to it shows in review.
 * Everything not listed is internal.
 *
 * @example
 * ```ts
 * import { createNetdiag } from '@netdiag/core';
 * const netdiag = createNetdiag({ dnsServers: ['9.9.9.9'] });
 * await netdiag.dns({ domain: 'example.com', type: 'MX' });
 * await netdiag.close();
 * ```
 */

export * from './capabilities.js';
// --- The capability registry (the faces are made from it) ---
export * from './registry.js';
// --- Answer schemas (zod) and the SPEC shapes ---
export * from './schemas/index.js';
// --- The capabilities as tools for agents (the MCP face builds on this table) ---
export {
  findTool,
  NETDIAG_TOOLS,
  operationLimit,
  type ToolContext,
  type ToolDefinition,
} from './tools/index.js';
