/**
 * The routes for people and terminals: the page at `/`, plain-text answers for `curl`
 * (`/`, `/ip`, `/country`, `/city`, `/asn`, as echoip answers them), the page's two static files,
 * and `/docs`, an API reference rendered by Swagger UI from the OpenAPI document with Swagger UI's
 * files served from this origin (copied from its npm package at build time; never a CDN).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { callerConnection } from '../caller.js';
import type { AppContext } from '../context.js';
import { sendError } from '../envelope.js';
import { renderPage } from '../page/render.js';
import type { Limiter } from '../rate-limit.js';
import { VERSION } from '../version.js';
import type { ParamDef, RouteDef } from './types.js';

/** `packages/http/assets`: one level up from the bundle in `dist/`, two from `src/routes/`. */
const ASSETS = [
  fileURLToPath(new URL('../assets', import.meta.url)),
  fileURLToPath(new URL('../../assets', import.meta.url)),
].find((dir) => existsSync(join(dir, 'app.js'))) as string;

/**
 * The page's CSP: nothing but this origin, no inline script or style, no framing, no plugins
 * (MDN HTTP Observatory: `default-src 'none'` earns its bonus). `connect-src 'self'` is what the
 * forms use to call the API.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Swagger UI sets inline styles on its elements, so `/docs` needs `'unsafe-inline'` styles. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The headers netdiag's own grader looks for, on every page it serves. */
function pageHeaders(req: Request, res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  // HSTS only means something over TLS (RFC 6797 §7.2: not sent over plain HTTP).
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
}

/** A browser asks for HTML; curl and scripts (Accept: any type) get plain text. */
function wantsHtml(req: Request): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}

function sendText(res: Response, text: string): void {
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

const fileCache = new Map<string, Buffer>();
function staticFile(path: string): Buffer {
  let data = fileCache.get(path);
  if (!data) {
    data = readFileSync(path);
    fileCache.set(path, data);
  }
  return data;
}

function sendFile(res: Response, path: string, type: string): void {
  const data = staticFile(path);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', data.length);
  // Static for a given version; an hour is short enough to pick up an upgrade.
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(data);
}

/** The page's files, by name (an allow-list: no path from the request reaches the disk). */
const PAGE_FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'docs.js': 'text/javascript; charset=utf-8',
};

/** Swagger UI's files (the names scripts/copy-swagger-ui.mjs copies). */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
let swaggerDir: string | undefined;
/**
 * The built package serves the copies its build put beside the bundle (`dist/swagger-ui/`): it
 * does not depend on swagger-ui-dist, whose @scarf/scarf dependency runs a telemetry install
 * script (issue 44). Run from the sources (the repository's tests), that folder does not exist
 * and the files come from the swagger-ui-dist devDependency they are copied from.
 */
function swaggerFile(name: string): string {
  if (swaggerDir === undefined) {
    const built = fileURLToPath(new URL('./swagger-ui', import.meta.url));
    swaggerDir = existsSync(built)
      ? built
      : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  }
  return join(swaggerDir, name);
}

async function htmlPage(ctx: AppContext, req: Request, res: Response): Promise<void> {
  // The page asks DNS blocklists about the visitor: counted like an API request.
  const limits = ctx.services.get('limits') as { all: Limiter } | undefined;
  if (limits && !(await limits.all(req, res))) return;
  const connection = callerConnection(req);
  const [caller, score] = await Promise.all([
    ctx.engine.callerV1(connection),
    ctx.engine.score(connection),
  ]);
  const html = renderPage(
    { caller, score, version: VERSION },
    `${req.protocol}://${req.headers.host ?? 'localhost'}`,
  );
  pageHeaders(req, res, PAGE_CSP);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.setHeader('Vary', 'Accept');
  res.end(html);
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>netdiag API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<script src="/docs/assets/swagger-ui-bundle.js" defer></script>
<script src="/assets/docs.js" defer></script>
</head>
<body>
<div id="ui"></div>
</body>
</html>
`;

/** One plain-text fact about the caller (`curl host/country`). */
function fact(pick: (data: Awaited<ReturnType<AppContext['engine']['lookupIpV1']>>) => string) {
  return async ({ ctx, req, res }: { ctx: AppContext; req: Request; res: Response }) => {
    const data = await ctx.engine.lookupIpV1(callerConnection(req).ip);
    sendText(res, `${pick(data)}\n`);
  };
}

/** A handler for `…/:file` that serves only the files named in `files` (name → type). */
function serveFiles(files: Record<string, string>, pathOf: (name: string) => string) {
  return ({ req, res }: { req: Request; res: Response }) => {
    const name = String(req.params.file ?? '');
    const type = files[name];
    if (!type) return sendError(res, 404, `Not found: no asset ${JSON.stringify(name)}`);
    sendFile(res, pathOf(name), type);
  };
}

const TEXT = { contentType: 'text/plain; charset=utf-8', description: 'One line of text' };

/** The media types of a set of files, each once. */
const typesOf = (files: Record<string, string>) => [...new Set(Object.values(files))];

/** The `file` path parameter of an asset route: one of the names it serves. */
function fileParam(files: Record<string, string>): ParamDef[] {
  const names = Object.keys(files);
  return [
    {
      name: 'file',
      in: 'path',
      required: true,
      description: "The file's name; any other is 404",
      schema: { type: 'string', enum: names },
      example: names[0],
    },
  ];
}

const PLAIN =
  'Plain text for scripts (`curl host/country`): one fact about the caller’s address, from the ' +
  'embedded IP data, and a newline. Not rate limited.';

export const pageRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'page',
    tag: 'Page',
    summary: 'The page for people, or the caller IP as plain text for curl',
    description:
      'A browser (Accept: text/html) gets the page: the visitor’s address, location, network, ' +
      'privacy type, score, grade and evidence rendered on the server, then one form per tool, all ' +
      'served from this origin under a strict Content-Security-Policy. Any other client (curl ' +
      'sends Accept: */*) gets the caller’s IP address and a newline, as echoip does. The HTML ' +
      'page counts against the per-client rate limit (it asks the DNS blocklists).',
    raw: {
      contentType: ['text/plain; charset=utf-8', 'text/html; charset=utf-8'],
      description: 'The caller IP and a newline, or the HTML page',
    },
    errors: [429],
    async handle({ ctx, req, res }) {
      if (wantsHtml(req)) return htmlPage(ctx, req, res);
      res.setHeader('Vary', 'Accept');
      sendText(res, `${callerConnection(req).ip}\n`);
    },
  },
  {
    method: 'get',
    path: '/ip',
    operationId: 'plainIp',
    tag: 'Page',
    summary: 'The caller IP as plain text',
    description:
      'The caller’s IP address and a newline, as `GET /` answers curl. Not rate limited.',
    raw: TEXT,
    errors: [],
    handle: ({ req, res }) => sendText(res, `${callerConnection(req).ip}\n`),
  },
  {
    method: 'get',
    path: '/country',
    operationId: 'plainCountry',
    tag: 'Page',
    summary: "The caller's country name as plain text (empty line when unknown)",
    description: PLAIN,
    raw: TEXT,
    errors: [],
    handle: fact((data) => data.location.country_name),
  },
  {
    method: 'get',
    path: '/city',
    operationId: 'plainCity',
    tag: 'Page',
    summary: "The caller's city as plain text (empty line when unknown)",
    description: PLAIN,
    raw: TEXT,
    errors: [],
    handle: fact((data) => data.location.city),
  },
  {
    method: 'get',
    path: '/asn',
    operationId: 'plainAsn',
    tag: 'Page',
    summary: "The caller's AS number as plain text, e.g. AS15169 (empty line when unknown)",
    description: PLAIN,
    raw: TEXT,
    errors: [],
    handle: fact((data) => (data.network.asn ? `AS${data.network.asn}` : '')),
  },
  {
    method: 'get',
    path: '/assets/:file',
    operationId: 'pageAsset',
    tag: 'Page',
    summary: 'The page’s script and style sheet',
    description:
      'The files the page at / and the reference at /docs load, by name. Cached for an hour.',
    params: fileParam(PAGE_FILES),
    raw: { contentType: typesOf(PAGE_FILES), description: 'The file' },
    errors: [404],
    handle: serveFiles(PAGE_FILES, (name) => join(ASSETS, name)),
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    tag: 'Page',
    summary: 'API reference (Swagger UI over /api/openapi.json, served from this origin)',
    description:
      'A page that renders this document with Swagger UI, whose files come from /docs/assets ' +
      'and /assets/docs.js: nothing is loaded from another origin.',
    raw: { contentType: 'text/html; charset=utf-8', description: 'The API reference page' },
    errors: [],
    handle({ req, res }) {
      pageHeaders(req, res, DOCS_CSP);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(DOCS_HTML);
    },
  },
  {
    method: 'get',
    path: '/docs/assets/:file',
    operationId: 'docsAsset',
    tag: 'Page',
    summary: 'Swagger UI’s files, served from this origin',
    description: 'Swagger UI’s script and style sheet, by name, for /docs. Cached for an hour.',
    params: fileParam(SWAGGER_FILES),
    raw: { contentType: typesOf(SWAGGER_FILES), description: 'The file' },
    errors: [404],
    handle: serveFiles(SWAGGER_FILES, swaggerFile),
  },
];
