/**
 * `GET /api/ports` (a tool endpoint, SPEC §4 behaviour 7), behind the SSRF guard.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { InvalidInputError } from '../errors.js';
import { GUARD } from '../site/guard-notes.js';
import { portScanDataSchema, scanPortsParamsSchema } from './schema.js';

export const scanPorts = defineCapability({
  id: 'scanPorts',
  params: scanPortsParamsSchema,
  data: portScanDataSchema,
  limit: 'tool',
  run: (engine, { host = undefined, ports }, context) => {
    const target = host ?? context.caller?.ip;
    if (!target) {
      throw new InvalidInputError(
        'Missing "host": give a host name or public IP address to scan (over stdio there is no caller address to default to)',
        'host',
      );
    }
    return engine.scanPorts({ host: target, ...(ports ? { ports } : {}) }, context);
  },
  http: {
    method: 'get',
    path: '/api/ports',
    tag: 'Probes',
    summary: 'TCP connect scan of a public host (default: the caller)',
    description:
      'A TCP connect scan (like nmap -sT): open = handshake completed, closed = RST, filtered = ' +
      'no answer within 1.5 s per port (or ICMP unreachable). Up to 50 ports are probed at once; ' +
      'at most 4 scans run on the server at a time (more wait; beyond 16 waiting → 503 with ' +
      "Retry-After). Without `ports` a curated catalog is scanned (nmap's most frequent TCP ports " +
      'plus risky services such as Docker 2375/2376, PostgreSQL, Redis, Elasticsearch, Memcached, ' +
      'MongoDB, MQTT, AMQP, Oracle, LDAP, rsync), each with a service name and a risk note. ' +
      '`accepts_everything` flags hosts where nearly every port answers open (a firewall or ' +
      `proxy that accepts everything). ${GUARD} Limited to 20 requests per window per client.`,
    paramExamples: { host: 'scanme.nmap.org', ports: '22,80,443,8000-8010' },
    example: {
      host: 'scanme.example',
      ip: '203.0.113.10',
      ports_scanned: 3,
      open_count: 1,
      closed_count: 1,
      filtered_count: 1,
      open_ports: [22],
      accepts_everything: false,
      note: null,
      port_timeout_ms: 1500,
      duration_ms: 1504,
      scanned_at: '2026-11-21T10:00:00.000Z',
      results: [
        {
          port: 22,
          state: 'open',
          latency_ms: 21.4,
          service: 'ssh',
          risk_level: 'low',
          risk: 'SSH is brute-forced constantly; allow keys only and consider an allow-list.',
        },
        {
          port: 23,
          state: 'closed',
          latency_ms: 20.9,
          service: 'telnet',
          risk_level: 'high',
          risk: 'Telnet is unencrypted and a favourite botnet entry point; close it.',
        },
        {
          port: 6379,
          state: 'filtered',
          latency_ms: null,
          service: 'redis',
          risk_level: 'high',
          risk: 'Redis has no authentication by default: data theft and remote code execution.',
        },
      ],
    },
    errors: [400, 403, 404, 502, 503, 504],
  },
  tool: {
    name: 'scan_ports',
    title: 'Scan TCP ports',
    description:
      'TCP connect scan of a public host: open, closed or filtered per port, with service names ' +
      'and risk notes. ports: up to 100 ports or ranges such as "22,80,8000-8010"; without it a ' +
      'curated list of common and risky ports. Same answer as GET /api/ports.',
    probe: true,
    openWorld: true,
  },
  cli: { command: 'ports', operand: 'host' },
});
