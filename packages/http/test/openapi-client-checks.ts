/**
 * One TypeScript file per client generator that assigns every recorded answer to the response
 * type the generator made for its operation and status, and makes each successful request
 * through the generated client (type-checked only, never run). `tsc --strict` then fails on an
 * answer the types do not admit (a missing, extra or wrongly typed field), an undocumented
 * status or media type, or a request the client cannot express (a path parameter it lacks).
 */
import { type Answer, operationOf } from './openapi-recordings.js';
import type { OpenApiDocument } from './openapi-tools.js';

export type Generator = 'openapi-typescript' | 'hey-api' | 'orval';

/** A generated check file, and which answer each of its lines belongs to. */
export interface CheckFile {
  text: string;
  /** The answer index of each line (1-based line numbers → index). */
  answerAt(line: number): number | undefined;
}

const literal = (value: unknown) => JSON.stringify(value);
const essence = (type: string) => (type.split(';')[0] ?? '').trim().toLowerCase();

/** The documented response of an answer's status, its `$ref` followed. */
export function documentedResponse(document: OpenApiDocument, answer: Answer) {
  const { operation } = operationOf(document, answer.call.operationId);
  const response = operation.responses[String(answer.status)];
  if (response?.$ref) {
    return document.components.responses[response.$ref.split('/').pop() as string];
  }
  return response;
}

/** The key of the documented media type the answer was sent with, if any. */
export function documentedMediaType(document: OpenApiDocument, answer: Answer) {
  if (answer.contentType === undefined) return undefined;
  const content = documentedResponse(document, answer)?.content ?? {};
  return Object.keys(content).find((key) => essence(key) === essence(answer.contentType ?? ''));
}

/**
 * The body as a TypeScript expression. A text body (HTML, scripts, metrics) is cut to its
 * first 80 characters: its type is `string` whatever its length.
 */
function bodyLiteral(answer: Answer): string {
  return typeof answer.body === 'string' ? literal(answer.body.slice(0, 80)) : literal(answer.body);
}

const pascal = (name: string) => name[0]?.toUpperCase() + name.slice(1);

/** The generated client's request options for an answer's call, as a TypeScript expression. */
function requestOptions(generator: Generator, answer: Answer): string {
  const { path, query, body, headers } = answer.call;
  const parts: string[] = [];
  if (generator === 'openapi-typescript' && (path || query)) {
    parts.push(`params: ${literal({ ...(path ? { path } : {}), ...(query ? { query } : {}) })}`);
  }
  if (generator === 'hey-api') {
    if (path) parts.push(`path: ${literal(path)}`);
    if (query) parts.push(`query: ${literal(query)}`);
  }
  if (body !== undefined) parts.push(`body: ${literal(body)}`);
  if (headers) parts.push(`headers: ${literal(headers)}`);
  return parts.length ? `{ ${parts.join(', ')} }` : '';
}

function answerType(generator: Generator, document: OpenApiDocument, answer: Answer): string {
  const op = answer.call.operationId;
  if (generator === 'openapi-typescript') {
    const responses = `paths[${literal(answer.template)}][${literal(answer.method)}]["responses"][${answer.status}]`;
    const key = documentedMediaType(document, answer) ?? answer.contentType;
    // No body: the documented response has no content either (`content?: never`).
    return key === undefined
      ? `${responses}["content"]`
      : `${responses}["content"][${literal(key)}]`;
  }
  if (generator === 'hey-api') {
    return `types.${pascal(op)}${answer.status < 400 ? 'Responses' : 'Errors'}[${answer.status}]`;
  }
  return `api.${op}Response`;
}

/**
 * Media types that @hey-api/openapi-ts types as a file (`Blob | File`) whatever the schema says
 * (a `type: string` without `format`; its "file-like" list in @hey-api/shared): the page's
 * scripts and style sheets. The document says `string`, which is what they are.
 */
const HEY_API_FILE_LIKE = ['text/css', 'text/javascript'];

function answerValue(generator: Generator, answer: Answer): string {
  const body = answer.body === undefined ? 'undefined' : bodyLiteral(answer);
  if (generator === 'hey-api' && HEY_API_FILE_LIKE.includes(essence(answer.contentType ?? ''))) {
    return `new Blob([${body}])`;
  }
  if (generator === 'orval') {
    return `{ status: ${answer.status}, data: ${body}, headers: new Headers() }`;
  }
  return body;
}

/** The request, through the generated client, that got a successful answer. */
function requestCall(generator: Generator, document: OpenApiDocument, answer: Answer): string {
  const op = answer.call.operationId;
  const options = requestOptions(generator, answer);
  if (generator === 'openapi-typescript') {
    const method = answer.method.toUpperCase();
    return `(await client.${method}(${[literal(answer.template), options].filter(Boolean).join(', ')})).data`;
  }
  if (generator === 'hey-api') return `(await sdk.${op}(${options})).data`;
  // orval: path parameters in order, then the body, then the query, then fetch's options.
  const { operation } = operationOf(document, op);
  const args = operation.parameters
    .filter((p) => p.in === 'path')
    .map((p) => literal(answer.call.path?.[p.name]));
  if (operation.requestBody) args.push(literal(answer.call.body));
  if (operation.parameters.some((p) => p.in === 'query')) {
    args.push(answer.call.query ? literal(answer.call.query) : 'undefined');
  }
  if (answer.call.headers) args.push(`{ headers: ${literal(answer.call.headers)} }`);
  return `(await api.${op}(${args.join(', ')})).data`;
}

const HEADERS: Record<Generator, string[]> = {
  'openapi-typescript': [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './openapi-typescript/schema';",
    "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });",
  ],
  'hey-api': [
    "import * as sdk from './hey-api/sdk.gen';",
    "import type * as types from './hey-api/types.gen';",
  ],
  orval: ["import * as api from './orval/api';"],
};

export function checkFile(
  generator: Generator,
  document: OpenApiDocument,
  answers: readonly Answer[],
): CheckFile {
  const lines = [...HEADERS[generator]];
  const owner: (number | undefined)[] = lines.map(() => undefined);
  answers.forEach((answer, i) => {
    const block = [
      `// ${i}: ${answer.method.toUpperCase()} ${answer.template} → ${answer.status}`,
      `export const answer${i}: ${answerType(generator, document, answer)} = ${answerValue(generator, answer)};`,
    ];
    if (answer.status < 300) {
      block.push(
        `export async function request${i}() { return ${requestCall(generator, document, answer)}; }`,
      );
      // The client's own answer type admits the answer too (orval's is the answer's type).
      if (answer.body !== undefined && generator !== 'orval') {
        block.push(
          `export const data${i}: NonNullable<Awaited<ReturnType<typeof request${i}>>> = answer${i};`,
        );
      }
    }
    lines.push(...block);
    owner.push(...block.map(() => i));
  });
  return { text: `${lines.join('\n')}\n`, answerAt: (line) => owner[line - 1] };
}
