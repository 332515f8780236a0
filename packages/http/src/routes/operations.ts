/**
 * Operational routes: health, metrics and the API description. They live in the route table
 * like every endpoint, so the OpenAPI document lists them too.
 * @module
 */
import { getMetrics } from '../metrics.js';
import { dataSchema } from '../openapi/core-schemas.js';
import { VERSION } from '../version.js';
import type { RouteDef } from './types.js';

/** Attribution required by the CC BY 4.0 licences of the bundled data (CONTRACT §1). */
export const DATA_ATTRIBUTION = [
  'IP geolocation by DB-IP (https://db-ip.com), CC BY 4.0',
  'IP to ASN data by ip-location-db (https://github.com/sapics/ip-location-db), CC BY 4.0',
  // The privacy data (@netdiag/core/data/ip-intel.json.gz); licences in data/ip-intel-licenses/.
  'IP ranges by lord-alfred/ipranges (CC0-1.0) and MISP/misp-warninglists (CC0-1.0)',
  'VPN and datacenter lists by X4BNet/lists_vpn (MIT), ASN lists by brianhama/bad-asn-list (MIT) and O-X-L/risk-db-lists (BSD-3-Clause)',
  'ProtonVPN exits by tn3w/ProtonVPN-IPs (Apache-2.0), iCloud Private Relay ranges by hroost/icloud-private-relay-iplist (MIT), Tor exits by alireza-rezaee/tor-nodes (MIT), T-Mobile US geofeed by tmobile/tmus-geofeed (Apache-2.0)',
];

const startedAt = Date.now();

export const operationRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tag: 'Operations',
    summary: 'Liveness and readiness',
    description:
      'Not rate limited. Answers 503 with `ready: false` while the server drains on shutdown, so a ' +
      'load balancer stops sending traffic before the listener closes.',
    data: dataSchema('health'),
    // Draining is an answer, not an error: the envelope is the success one, `ready: false`.
    dataStatuses: { 503: 'Draining: `ready` is false while the server shuts down' },
    errors: [],
    handle({ ctx, res }) {
      const ready =
        (ctx.services.get('readiness') as { ready: boolean } | undefined)?.ready ?? true;
      res.status(ready ? 200 : 503);
      return {
        status: ready ? 'ok' : 'draining',
        ready,
        version: VERSION,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        attribution: DATA_ATTRIBUTION,
        feeds: ctx.engine.feedStatus(),
      };
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description:
      'Requests by route and status, latency histograms, upstream errors and timeouts by kind, cache ' +
      'lookups by result (hit ratio), rate-limit rejections, probes in flight, process metrics. Not rate ' +
      'limited; absent when NETDIAG_METRICS=off.',
    raw: {
      contentType: 'text/plain; version=0.0.4',
      description: 'Prometheus text exposition format',
    },
    errors: [],
    async handle({ ctx, res }) {
      const registry = getMetrics(ctx).registry;
      res.setHeader('Content-Type', registry.contentType);
      res.end(await registry.metrics());
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'openapi',
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the route table that mounts the routes. Not rate limited.',
    raw: {
      contentType: 'application/json',
      description: 'OpenAPI 3.1 document',
      schema: {
        type: 'object',
        description: 'An OpenAPI 3.1 document',
        properties: {
          openapi: { type: 'string', description: 'The OpenAPI version, 3.1.0' },
          info: { type: 'object', additionalProperties: true },
          servers: { type: 'array', items: { type: 'object', additionalProperties: true } },
          paths: { type: 'object', additionalProperties: true },
          components: { type: 'object', additionalProperties: true },
        },
        required: ['openapi', 'info', 'paths'],
        additionalProperties: true,
      },
    },
    errors: [],
    handle({ ctx, req, res }) {
      const document = ctx.services.get('openapi') as Record<string, unknown>;
      // Mounted by `createRouter` under a path: the document's server is that path.
      res.json(req.baseUrl ? { ...document, servers: [{ url: req.baseUrl }] } : document);
    },
  },
];
