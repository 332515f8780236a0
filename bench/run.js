#!/usr/bin/env node
/**
 * Runs every benchmark (bench/<area>/*.bench.ts) one after another with tsx, or only those whose
 * path contains one of the arguments: `pnpm bench dns probes`. The 10-minute soak runs only when
 * named (`pnpm bench soak`). Every benchmark starts its own loopback fixtures.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = [];
for (const area of readdirSync(here).sort()) {
  const dir = join(here, area);
  if (area === 'node_modules' || area === 'peers' || !statSync(dir).isDirectory()) continue;
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith('.bench.ts')) files.push(join(dir, file));
  }
}
const selected = files.filter((file) => {
  const name = relative(here, file);
  if (filters.length > 0) return filters.some((f) => name.includes(f));
  return !name.includes('soak');
});
let failed = 0;
for (const file of selected) {
  console.log(`\n### ${relative(join(here, '..'), file)}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: here,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
