/**
 * The package's entries: `@netdiag/core` is `@netdiag/core/capabilities` plus the answers' zod
 * schemas and the tool table, and the capabilities entry, as built, never loads zod (which is
 * most of what importing the root entry costs: src/capabilities.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import * as capabilities from '../src/capabilities.js';
import * as root from '../src/index.js';
import * as registry from '../src/registry.js';
import * as schemas from '../src/schemas/index.js';
import * as tools from '../src/tools/index.js';

describe('the entries', () => {
  test('the root is the capabilities, the schemas, the registry and the tool table, and nothing else', () => {
    for (const [name, value] of Object.entries(capabilities))
      expect(root, name).toHaveProperty(name, value);
    const onlyInRoot = Object.keys(root)
      .filter((name) => !(name in capabilities))
      .sort();
    const expected = [
      ...Object.keys(schemas),
      ...Object.keys(tools),
      ...Object.keys(registry),
    ].sort();
    expect(onlyInRoot).toEqual(expected);
    expect(tools.findTool).toBe(root.findTool);
    // Every schema is a zod schema, and none of them leaks into the capabilities entry.
    expect(Object.keys(schemas).length).toBeGreaterThan(20);
    for (const name of Object.keys(schemas)) expect(capabilities).not.toHaveProperty(name);
  });

  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  const built = prerequisite(
    'the built @netdiag/core',
    existsSync(join(dist, 'capabilities.js')),
    'npx --yes pnpm@10 build',
  );

  const IMPORT =
    /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s*|[rR]equire\s*\(\s*|\)\s*\(\s*)["']([^"']+)["']/gm;

  /** Every bare module specifier that `file` and the files it imports relatively import. */
  function packagesImported(file: string, seen = new Set<string>()): Set<string> {
    const found = new Set<string>();
    if (seen.has(file)) return found;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports and re-exports of the built ESM (`from "x"`), dynamic `import("x")`, and
    // the dependencies required on first use (`lazyRequire("x")`, `createRequire(…)("x")`).
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.')) {
        for (const name of packagesImported(join(dirname(file), specifier), seen)) found.add(name);
      } else {
        found.add(specifier);
      }
    }
    return found;
  }

  test.skipIf(!built)('the built capabilities entry imports no zod; the root entry does', () => {
    const fromCapabilities = packagesImported(join(dist, 'capabilities.js'));
    const fromRoot = packagesImported(join(dist, 'index.js'));
    // The scan finds imports at all (the engine's own dependencies).
    expect(fromCapabilities).toContain('undici');
    expect(
      [...fromCapabilities].filter((name) => name === 'zod' || name.startsWith('zod/')),
    ).toEqual([]);
    expect(fromRoot).toContain('zod');
  });
});
