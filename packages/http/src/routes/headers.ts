/** `GET /api/v1/headers`: echo of the caller's request (SPEC 2.14). */
import { dataSchema } from '../openapi/core-schemas.js';
import type { RouteDef } from './types.js';

/**
 * The URL the client asked for. Origin-form (`/path?q`) is joined to the scheme and Host (whose
 * grammar `responseDefaults` has checked); absolute-form is already a whole URL, and joining it to
 * Host produced `http://good.examplehttp://evil.example/…` (issue 20 item 7).
 */
export function requestUrl(protocol: string, host: string, target: string): string {
  if (target.startsWith('/')) return `${protocol}://${host}${target}`;
  try {
    return new URL(target).href;
  } catch {
    return `${protocol}://${host}/`;
  }
}

export const headersRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/v1/headers',
    operationId: 'echoHeaders',
    tag: 'Caller',
    summary: 'Echo the request: method, full URL, lower-cased headers and caller IP',
    description:
      'Header names are lower case; repeated headers are joined with ", " (RFC 9110 §5.3). ' +
      'The URL is rebuilt from the scheme, the Host header and the path with query; for an ' +
      'absolute-form request (`GET http://host/path HTTP/1.1`) it is the request target itself, ' +
      'whose authority replaces Host (RFC 9112 §3.2.2). A request with more than one Host ' +
      'header or an invalid one is answered 400 before any route (RFC 9112 §3.2). ' +
      'Behind a trusted proxy (NETDIAG_TRUST_PROXY) scheme and IP come from X-Forwarded-*.',
    data: dataSchema('echoHeaders'),
    // It echoes the URL it was asked, query and all: any parameter is part of the question.
    anyQuery: true,
    example: {
      method: 'GET',
      url: 'http://localhost:8080/api/v1/headers',
      headers: { host: 'localhost:8080', 'user-agent': 'curl/8.5.0', accept: '*/*' },
      ip: '127.0.0.1',
    },
    errors: [],
    handle({ req, callerIp }) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        method: req.method,
        url: requestUrl(req.protocol, req.headers.host ?? '', req.originalUrl),
        headers,
        ip: callerIp,
      };
    },
  },
];
