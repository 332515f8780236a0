/**
 * Clients generated from the served OpenAPI document type the real answers: openapi-typescript
 * (with openapi-fetch), @hey-api/openapi-ts and orval each generate a client, and `tsc --strict`
 * checks a file per generator that assigns every answer recorded from the app (upstreams on
 * loopback) to the generated type of its operation and status, and makes each successful
 * request through the generated client. The answers are also held against the document
 * itself: every operation answered, every status and media type documented, and the `/mcp`
 * description naming the revision the server negotiates and the tools it lists.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type LoopbackUpstreams, startLoopbackUpstreams, tempDir } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import {
  type CheckFile,
  checkFile,
  documentedMediaType,
  documentedResponse,
  type Generator,
} from './openapi-client-checks.js';
import { type Answer, calls, operationOf, record } from './openapi-recordings.js';
import { type OpenApiDocument, packageDir, runTool, type ToolRun } from './openapi-tools.js';

const GENERATORS: Record<Generator, (document: string, out: string) => Parameters<typeof runTool>> =
  {
    'openapi-typescript': (document, out) => [
      'openapi-typescript',
      'openapi-typescript',
      [document, '--output', join(out, 'openapi-typescript', 'schema.ts')],
      out,
    ],
    'hey-api': (document, out) => [
      '@hey-api/openapi-ts',
      'openapi-ts',
      ['--input', document, '--output', join(out, 'hey-api')],
      out,
    ],
    orval: (document, out) => [
      'orval',
      'orval',
      ['--input', document, '--output', join(out, 'orval', 'api.ts'), '--client', 'fetch'],
      out,
    ],
  };
const NAMES = Object.keys(GENERATORS) as Generator[];

let upstreams: LoopbackUpstreams;
let document: OpenApiDocument;
let answers: Answer[];
const generated = new Map<Generator, ToolRun>();
const checks = new Map<Generator, CheckFile>();
/** tsc's diagnostics by generator: in its check file (with the answer) or its generated code. */
const diagnostics = new Map<Generator, string[]>(NAMES.map((name) => [name, []]));

beforeAll(async () => {
  upstreams = await startLoopbackUpstreams();
  const app = createApp({
    logLevel: 'silent',
    env: false,
    ...upstreams.config,
    cacheDir: tempDir('netdiag-openapi-clients-cache-'),
    rateLimit: 100_000,
    toolRateLimit: 100_000,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    document = (await (await fetch(`${base}/api/openapi.json`)).json()) as OpenApiDocument;
    answers = await record(base, document, calls(upstreams));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.locals.netdiag.engine.close();
  }

  const out = tempDir('netdiag-openapi-clients-');
  const file = join(out, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  await Promise.all(
    NAMES.map(async (name) => {
      generated.set(name, await runTool(...GENERATORS[name](file, out)));
    }),
  );
  const ok = NAMES.filter((name) => generated.get(name)?.code === 0);
  for (const name of ok) {
    const check = checkFile(name, document, answers);
    checks.set(name, check);
    writeFileSync(join(out, `${name}.check.ts`), check.text);
  }
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        skipLibCheck: true,
        paths: { 'openapi-fetch': [packageDir('openapi-fetch')] },
      },
      files: ok.map((name) => `${name}.check.ts`),
    }),
  );
  if (ok.length === 0) return;
  const tsc = await runTool('typescript', 'tsc', ['-p', 'tsconfig.json', '--pretty', 'false'], out);
  for (const text of tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const name = NAMES.find((n) => text.startsWith(`${n}.check.ts`) || text.startsWith(`${n}/`));
    const at = /^[\w.-]+\.check\.ts\((\d+),/.exec(text);
    const index = at ? checks.get(name as Generator)?.answerAt(Number(at[1])) : undefined;
    const answer = index === undefined ? undefined : answers[index];
    const which = answer
      ? `${answer.call.operationId} ${answer.status} (answer ${index}): `
      : '(generated code) ';
    diagnostics.get(name ?? NAMES[0]!)?.push(`${which}${text.slice(0, 600)}`);
  }
  if (tsc.code !== 0 && [...diagnostics.values()].every((list) => list.length === 0)) {
    throw new Error(`tsc failed without diagnostics: ${tsc.stdout}${tsc.stderr}`);
  }
}, 120_000);

afterAll(() => upstreams?.close());

describe('recorded answers against the document', () => {
  test('every operation was answered, each with the status its fixture gets', () => {
    const operations = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    const answered = new Set(answers.map((answer) => answer.call.operationId));
    expect(operations.filter((op) => !answered.has(op))).toEqual([]);
    const unexpected = answers
      .filter((answer) => answer.status !== (answer.call.status ?? 200))
      .map((a) => `${a.call.operationId} ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
    expect(unexpected).toEqual([]);
  });

  test('every status and media type answered is documented for its operation', () => {
    const undocumented = answers.flatMap((answer) => {
      const where = `${answer.call.operationId} ${answer.status}`;
      const response = documentedResponse(document, answer);
      if (!response) return [`${where}: status not documented`];
      if (answer.body === undefined) return response.content ? [`${where}: documented a body`] : [];
      return documentedMediaType(document, answer)
        ? []
        : [`${where}: ${answer.contentType} not among ${Object.keys(response.content ?? {})}`];
    });
    expect(undocumented).toEqual([]);
  });

  test('/mcp names the revision the server negotiates and the tools it lists', () => {
    const description = operationOf(document, 'mcp').operation.description ?? '';
    const result = (method: string) => {
      const answer = answers.find((a) => (a.call.body as { method?: string })?.method === method);
      expect(answer, method).toBeDefined();
      return (answer!.body as { result: Record<string, unknown> }).result;
    };
    expect(description).toContain(`revision ${result('initialize')['protocolVersion']}`);
    const tools = (result('tools/list')['tools'] as { name: string }[]).map((tool) => tool.name);
    expect(description).toContain(`${tools.length} tools: ${tools.join(', ')};`);
  });
});

describe.each(NAMES)('%s', (name) => {
  test('generates a client from the document', () => {
    const run = generated.get(name)!;
    expect(run.code, `${run.stdout}\n${run.stderr}`.slice(-2000)).toBe(0);
  });

  test('its types admit every recorded answer, and its requests compile (tsc --strict)', () => {
    expect(checks.has(name), 'no client was generated').toBe(true);
    expect(diagnostics.get(name)).toEqual([]);
  });
});
