import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NETDIAG_TOOLS } from '@netdiag/core';
import { expect, test } from 'vitest';
import { toolTable, withToolTable } from '../src/tool-table.js';

const doc = fileURLToPath(new URL('../../../docs/mcp.md', import.meta.url));

test('docs/mcp.md lists the tools the server offers (run `pnpm docs:mcp` when this fails)', () => {
  const text = readFileSync(doc, 'utf8');
  expect(withToolTable(text)).toBe(text);
  for (const tool of NETDIAG_TOOLS) expect(toolTable()).toContain(`| \`${tool.name}\` |`);
});
