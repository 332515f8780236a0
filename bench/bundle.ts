/**
 * Modules of the packages that their builds do not export (a parser, the UDP transport), for the
 * benches that time them: bundled from the sources with esbuild as tsup builds the packages
 * (ES modules, node20, code splitting, so that every entry shares one copy of each module), and
 * loaded as they are. Loading matters: tsx, which runs the benches, compiles again any `.js`
 * file of no declared module type, with `keepNames`, and that wraps every function made at run
 * time in a naming call (an SPF record of thousands of terms read 5x slower, bench/parsers). The
 * bundle goes into a folder marked `"type": "module"`, and each exported function's text is
 * checked against the bundle's: a function compiled again prints differently, and the bench
 * stops rather than time it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

export interface Bundled {
  /** Each entry's exports, by the entry's name. */
  modules: Record<string, Record<string, unknown>>;
  /** Removes the bundle's folder. */
  dispose(): void;
}

/** Bundles `entries` (name → path from the repository root) and imports each of them. */
export async function bundled(entries: Record<string, string>): Promise<Bundled> {
  const out = mkdtempSync(join(tmpdir(), 'netdiag-bench-bundle-'));
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, path]) => [name, join(root, path)]),
    ),
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: out,
    logLevel: 'error',
    // CommonJS dependencies (dns-packet) need a require(), as Node's own loader gives them.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  const text = readdirSync(out)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(out, file), 'utf8'))
    .join('\n');
  const modules: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(entries)) {
    const module = (await import(pathToFileURL(join(out, `${name}.js`)).href)) as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(module)) {
      if (typeof value === 'function' && !text.includes(String(value))) {
        throw new Error(`${name}.${key} is not the bundle's code (compiled again on load)`);
      }
    }
    modules[name] = module;
  }
  return { modules, dispose: () => rmSync(out, { recursive: true, force: true }) };
}
