/**
 * The MCP revisions this face speaks, as plain constants: the HTTP face names them in its
 * OpenAPI document without loading the SDK (`@netdiag/mcp/protocol`, a module with no imports).
 * @module
 */
import type { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/**
 * The revision the server answers an `initialize` with unless the client asks for an older one
 * it also speaks: the SDK's `LATEST_PROTOCOL_VERSION`. The SDK declares that constant as a
 * literal type, so `satisfies` stops the build when an SDK update moves it.
 */
export const MCP_PROTOCOL_VERSION = '2025-11-25' satisfies typeof LATEST_PROTOCOL_VERSION;

/**
 * The older revisions an `initialize` may ask for and get (the rest of the SDK's
 * `SUPPORTED_PROTOCOL_VERSIONS`, a `string[]` the compiler cannot check: a test compares them).
 */
export const MCP_OLDER_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];
