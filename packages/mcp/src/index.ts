/**
 * `@netdiag/mcp`: the Model Context Protocol face of netdiag. Every capability of the engine
 * (`@netdiag/core`'s `NETDIAG_TOOLS`) as an MCP tool, over stdio (`netdiag mcp`) or streamable
 * HTTP (`/mcp` on the netdiag HTTP server).
 *
 * @example
 * ```ts
 * import { createNetdiag } from '@netdiag/core';
 * import { serveStdio } from '@netdiag/mcp';
 * await serveStdio(createNetdiag({ dnsServers: ['9.9.9.9'] }));
 * ```
 * @packageDocumentation
 */
export { MCP_OLDER_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSION } from './protocol.js';
export { type CreateMcpServerOptions, createMcpServer } from './server.js';
export { handleMcpHttpRequest, serveStdio } from './transports.js';
export { VERSION } from './version.js';
