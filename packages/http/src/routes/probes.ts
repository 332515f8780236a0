/**
 * The outbound probes: `GET /api/down` (SPEC 2.12), `GET /api/security-headers` and
 * `GET /api/ports` (tool endpoints, SPEC §4 behaviours 5–7). Every target goes through the
 * SSRF guard (CONTRACT §4): private, reserved and internal addresses → 403.
 * @module
 */
import { dataSchema, paramsOf } from '../openapi/core-schemas.js';
import { queryParam } from '../params.js';
import type { RouteDef } from './types.js';

const GUARD =
  'The target is resolved once with the netdiag resolver; if ANY address is private, reserved ' +
  'or internal (IANA special-purpose registries, every IPv4/IPv6 literal form, IPv4-mapped, ' +
  'NAT64 and 6to4 included) the answer is 403 "Target not allowed: …" with the reason. ' +
  'Connections go only to the checked address (no second lookup); every redirect hop is ' +
  'checked again (at most 5); bodies are read up to 1 MiB; connect 5 s, total 10 s. ' +
  'NETDIAG_ALLOWED_TARGETS exempts ranges.';

export const probeRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/down',
    operationId: 'checkSite',
    tag: 'Probes',
    summary: 'Is a web site up? Status, response time, server and TLS certificate facts',
    description:
      'GET with redirects followed. Without a scheme https is tried first, then http when https ' +
      'cannot connect (refused, unreachable, connect timeout, no TLS), and `note` says so. Up = an ' +
      'HTTP answer below 500. A site that is down is a 200 with is_up false and `note` saying why ' +
      '(DNS failure, refused, timeout, TLS error, redirect loop, 5xx); an untrusted certificate ' +
      `counts as down (TLS error) and nothing is sent. ${GUARD}`,
    params: paramsOf('checkSite', { url: 'example.com' }),
    data: dataSchema('checkSite'),
    example: {
      url: 'https://example.com/',
      is_up: true,
      status_code: 200,
      status_text: 'OK',
      response_time_ms: 142,
      server: 'ECS (dcb/7F84)',
      content_type: 'text/html; charset=UTF-8',
      powered_by: null,
      note: null,
      checked_at: '2026-11-21T10:00:00.000Z',
      final_url: 'https://example.com/',
      redirects: 0,
      ip: '93.184.215.14',
      tls: {
        issuer: 'DigiCert Inc',
        subject: '*.example.com',
        valid_from: '2026-01-15T00:00:00.000Z',
        valid_to: '2027-01-15T23:59:59.000Z',
        days_left: 55,
        trusted: true,
        error: null,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        alpn: 'h2',
      },
    },
    errors: [400, 403],
    handle({ req, ctx, signal }) {
      const url = queryParam(req, 'url', true);
      return ctx.engine.checkSite(url, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/security-headers',
    operationId: 'gradeSecurityHeaders',
    tag: 'Probes',
    summary: 'Grade the HTTP security headers of a site (MDN HTTP Observatory algorithm)',
    description:
      'Fetches the URL once (https assumed) and, for the redirection test, the http:// URL of the ' +
      'same host, both carrying Origin: https://cors-probe.netdiag.invalid for the CORS test. ' +
      "Grading follows the MDN HTTP Observatory (algorithm 6): start at 100, add each test's " +
      'modifier, bonuses only when the score without them is at least 90, grade per 5 points ' +
      '(A+ from 100 … F below 25). Tests: CSP (parsed), HSTS, X-Frame-Options/frame-ancestors, ' +
      'X-Content-Type-Options, Referrer-Policy, CORP, COOP, COEP, CORS, cookies, redirection, ' +
      'Subresource Integrity; netdiag adds Permissions-Policy and information disclosure (Server ' +
      'with a version, X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version, X-Generator, …). ' +
      "`score`/`grade` include the additions; `observatory` has the Observatory's own figures. " +
      `Without a scheme and without an https answer the http answer is graded (see note). ${GUARD} ` +
      'Limited to 20 requests per window per client.',
    params: paramsOf('gradeSecurityHeaders', { url: 'example.com' }),
    data: dataSchema('gradeSecurityHeaders'),
    example: {
      url: 'https://example.com/',
      status_code: 200,
      score: 20,
      grade: 'F',
      tests_passed: 7,
      tests_failed: 7,
      tests_quantity: 14,
      observatory: {
        score: 25,
        grade: 'D-',
        tests_passed: 7,
        tests_failed: 5,
        tests_quantity: 12,
        algorithm_version: 6,
      },
      redirects: 0,
      note: null,
      tls: {
        issuer: 'DigiCert Inc',
        subject: '*.example.com',
        valid_from: '2026-01-15T00:00:00.000Z',
        valid_to: '2027-01-15T23:59:59.000Z',
        days_left: 55,
        trusted: true,
        error: null,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        alpn: 'h2',
      },
      headers: [
        {
          test: 'content-security-policy',
          title: 'Content Security Policy (CSP)',
          header: 'Content-Security-Policy',
          present: false,
          value: null,
          result: 'csp-not-implemented',
          pass: false,
          score_modifier: -25,
          description: 'No Content-Security-Policy header.',
          recommendation:
            "Set a Content-Security-Policy without 'unsafe-inline'/'unsafe-eval', with script-src and object-src restricted (start from default-src 'none').",
        },
      ],
      checked_at: '2026-11-21T10:00:00.000Z',
    },
    errors: [400, 403, 404, 502, 504],
    handle({ req, ctx, signal }) {
      const url = queryParam(req, 'url', true);
      return ctx.engine.securityHeaders(url, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/ports',
    operationId: 'scanPorts',
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
    params: paramsOf('scanPorts', { host: 'scanme.nmap.org', ports: '22,80,443,8000-8010' }),
    data: dataSchema('scanPorts'),
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
    handle({ req, ctx, callerIp, signal }) {
      const host = queryParam(req, 'host') ?? callerIp;
      const ports = queryParam(req, 'ports');
      return ctx.engine.scanPorts({ host, ...(ports !== undefined ? { ports } : {}) }, { signal });
    },
  },
];
