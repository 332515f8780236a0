/**
 * Part of the package build (`pnpm build` runs it after tsup): copies the Swagger UI files that
 * `/docs` serves from the swagger-ui-dist devDependency into `dist/swagger-ui/`, with its
 * licence and notice beside them. The published package ships these copies and does not depend
 * on swagger-ui-dist, whose dependency @scarf/scarf runs an install script that reports the
 * install to a third party (npm 10 runs it; issue 44). Plain JavaScript: no TypeScript loader.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The names src/routes/page.ts serves (SWAGGER_FILES), and the licence texts that go with them.
const FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'swagger-ui-bundle.js.LICENSE.txt',
  'LICENSE',
  'NOTICE',
];

const here = dirname(fileURLToPath(import.meta.url));
const source = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const target = join(here, '../dist/swagger-ui');
mkdirSync(target, { recursive: true });
for (const name of FILES) copyFileSync(join(source, name), join(target, name));
const { version, license } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
writeFileSync(
  join(target, 'SOURCE.txt'),
  `Copied from the npm package swagger-ui-dist ${version} (https://github.com/swagger-api/swagger-ui),\n` +
    `licence ${license} (LICENSE, NOTICE; the bundled libraries' notices in swagger-ui-bundle.js.LICENSE.txt),\n` +
    'unchanged, by scripts/copy-swagger-ui.mjs at build time.\n',
);
console.log(`copy-swagger-ui: swagger-ui-dist ${version} → dist/swagger-ui`);
