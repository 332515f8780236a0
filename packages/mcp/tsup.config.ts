import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

// `protocol`: the MCP revisions as constants, for the HTTP face's OpenAPI document without the SDK.
export default defineConfig({ ...baseOptions, entry: ['src/index.ts', 'src/protocol.ts'] });
