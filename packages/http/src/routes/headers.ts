/** `GET /api/v1/headers`: echo of the caller's request (SPEC 2.14). */
import { dataSchema } from '../openapi/core-schemas.js';
import type { RouteDef } from './types.js';

export const headersRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/v1/headers',
    operationId: 'echoHeaders',
    tag: 'Caller',
    summary: 'Echo the request: method, full URL, lower-cased headers and caller IP',
    description:
      'Header names are lower case; repeated headers are joined with ", " (RFC 9110 §5.3). ' +
      'The URL is rebuilt from the scheme, the Host header and the path with query. ' +
      'Behind a trusted proxy (NETDIAG_TRUST_PROXY) scheme and IP come from X-Forwarded-*.',
    data: dataSchema('echoHeaders'),
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
        url: `${req.protocol}://${req.get('host') ?? ''}${req.originalUrl}`,
        headers,
        ip: callerIp,
      };
    },
  },
];
