/** Rewrites the tool table in docs/mcp.md from NETDIAG_TOOLS. Run: pnpm docs:mcp */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withToolTable } from '../src/tool-table.js';

const file = fileURLToPath(new URL('../../../docs/mcp.md', import.meta.url));
writeFileSync(file, withToolTable(readFileSync(file, 'utf8')));
console.log(`updated ${file}`);
