/**
 * Rules every product source file keeps (packages/*\/src, tests aside): no Node internals, no
 * test-runner branches, no imports of files another package does not export, no metric objects
 * handed to prom-client behind its types, and no dependency that nothing imports.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packagesDir = join(root, 'packages');
const packages = readdirSync(packagesDir).filter((name) =>
  existsSync(join(packagesDir, name, 'package.json')),
);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(path);
  }
  return out;
}

const files = packages.flatMap((pkg) =>
  sourceFiles(join(packagesDir, pkg, 'src')).map((path) => ({
    pkg,
    path,
    name: relative(root, path),
    text: readFileSync(path, 'utf8'),
  })),
);

/** Module specifiers a file loads: imports, `require`, `lazyRequire`, `require.resolve`. */
function specifiers(source: string): string[] {
  // Comments hold usage examples (`import … from '@netdiag/core'`), not imports.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\b(?:require|lazyRequire)(?:<[^>]*>)?\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\)\(\s*['"]([^'"]+)['"]\s*\)/g, // createRequire(…)('x')
    /\.resolve\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) out.push(m[1] as string);
  return out;
}

/** A bare specifier as package name and subpath (`./lib/x.js`), or undefined for others. */
function splitBare(spec: string): { name: string; subpath: string } | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return undefined;
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, n).join('/');
  const rest = parts.slice(n).join('/');
  return { name, subpath: rest ? `./${rest}` : '.' };
}

function manifestOf(pkg: string, name: string): Record<string, unknown> | undefined {
  for (const dir of [join(packagesDir, pkg, 'node_modules'), join(root, 'node_modules')]) {
    const file = join(dir, name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  }
  return undefined;
}

/**
 * Whether `subpath` is in the package's `exports` map (keys, `*` patterns). Without a map only
 * the main entry counts; `./package.json` always does (it is how a package's folder is found).
 */
function exported(manifest: Record<string, unknown>, subpath: string): boolean {
  if (subpath === './package.json') return true;
  const exportsField = manifest['exports'];
  if (exportsField === undefined) return subpath === '.';
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return subpath === '.';
  const keys = Object.keys(exportsField as object);
  if (!keys.some((k) => k.startsWith('.'))) return subpath === '.'; // conditions only
  return keys.some((key) => {
    if (!key.includes('*')) return key === subpath;
    const [before, after] = key.split('*') as [string, string];
    return subpath.startsWith(before) && subpath.endsWith(after);
  });
}

/** Development dependencies a source file may reach, each with its reason. */
const DEV_FALLBACKS = new Map([
  [
    'packages/http/src/routes/page.ts: swagger-ui-dist',
    'run from the sources (tests) before the build has copied its files into dist/',
  ],
]);

describe('product sources', () => {
  test('the walk sees every package and its files', () => {
    expect(packages.sort()).toEqual(['cli', 'core', 'http', 'ip-data', 'mcp']);
    expect(files.length).toBeGreaterThan(100);
  });

  test('no Node internals', () => {
    const hits = files.filter((f) =>
      /process\.binding|internalBinding|_linkedBinding/.test(f.text),
    );
    expect(hits.map((f) => f.name)).toEqual([]);
  });

  test('no branches on the test runner', () => {
    const hits = files.filter((f) => /process\.env(\.VITEST|\[['"]VITEST['"]\])/.test(f.text));
    expect(hits.map((f) => f.name)).toEqual([]);
  });

  test('no import of a file another package does not export (and only declared packages)', () => {
    const problems: string[] = [];
    for (const file of files) {
      const manifest = JSON.parse(
        readFileSync(join(packagesDir, file.pkg, 'package.json'), 'utf8'),
      ) as Record<string, Record<string, string> | undefined>;
      const declared = new Set([
        ...Object.keys(manifest['dependencies'] ?? {}),
        ...Object.keys(manifest['optionalDependencies'] ?? {}),
        ...Object.keys(manifest['peerDependencies'] ?? {}),
      ]);
      for (const spec of specifiers(file.text)) {
        const bare = splitBare(spec);
        if (!bare) continue;
        if (!declared.has(bare.name) && !DEV_FALLBACKS.has(`${file.name}: ${bare.name}`)) {
          // Type-only imports of dev types are erased; anything loaded at run time must be declared.
          const typeOnly = new RegExp(`import\\s+type[^;]*['"]${spec}['"]`).test(file.text);
          if (!typeOnly) problems.push(`${file.name}: '${spec}' is not a declared dependency`);
          continue;
        }
        const dep = manifestOf(file.pkg, bare.name);
        if (!dep) problems.push(`${file.name}: '${bare.name}' is not installed`);
        else if (!exported(dep, bare.subpath)) {
          problems.push(`${file.name}: '${spec}' is not in ${bare.name}'s exports`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('no object registered into prom-client by hand (its metric classes register themselves)', () => {
    const hits = files.filter((f) => /\.registerMetric\(/.test(f.text));
    expect(hits.map((f) => f.name)).toEqual([]);
  });

  test('every declared dependency is used by the package', () => {
    const unused: string[] = [];
    for (const pkg of packages) {
      const manifest = JSON.parse(
        readFileSync(join(packagesDir, pkg, 'package.json'), 'utf8'),
      ) as Record<string, Record<string, string> | undefined>;
      const own = files.filter((f) => f.pkg === pkg);
      const named = new Set(
        own.flatMap((f) => [
          ...specifiers(f.text).map((s) => splitBare(s)?.name),
          // Data packages are found by name (`dataPackage('…')`), not imported.
          ...[...f.text.matchAll(/['"](@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)['"]/g)].map((m) => m[1]),
        ]),
      );
      const deps = Object.keys(manifest['dependencies'] ?? {});
      // A package another dependency needs as its peer (the MCP SDK's zod) is used through it.
      const peers = new Set(
        deps.flatMap((d) => Object.keys(manifestOf(pkg, d)?.['peerDependencies'] ?? {})),
      );
      for (const dep of deps) {
        // Type packages serve the published declarations (createApp's Express types).
        if (dep.startsWith('@types/')) continue;
        if (!named.has(dep) && !peers.has(dep)) unused.push(`${pkg}: ${dep}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
