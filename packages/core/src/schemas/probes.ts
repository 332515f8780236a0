/**
 * The outbound probes: `GET /api/down` (SPEC 2.12), `GET /api/security-headers` and
 * `GET /api/ports` (tool endpoints, CONTRACT §6: shapes designed here).
 * @module
 */
import { z } from 'zod';
import { SECURITY_GRADES } from '../headers/score-table.js';
import { parsePortList } from '../ports/port-list.js';
import { acceptedBy, hostInput, probeUrlInput } from './common.js';

// --- Parameters ---

export const checkSiteParamsSchema = z.object({
  url: probeUrlInput.describe('URL or host name (http/https only; scheme optional).'),
});
export type CheckSiteParams = z.input<typeof checkSiteParamsSchema>;

export const securityHeadersParamsSchema = z.object({
  url: probeUrlInput.describe(
    'URL or host name (http/https only; scheme optional, https assumed).',
  ),
});
export type SecurityHeadersParams = z.input<typeof securityHeadersParamsSchema>;

const PORT =
  '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';
const PORT_ENTRY = `${PORT}(?:-${PORT})?`;

export const scanPortsParamsSchema = z.object({
  host: hostInput
    .optional()
    .describe("Host name or public IP to scan; default: the caller's own IP."),
  // The pattern caps the entries at 100 and each port at 1–65535; that a range runs upwards and
  // that the expanded list stays within 100 ports cannot be written as one: the refinement
  // (zod only, absent from the JSON Schema) asks `parsePortList` itself.
  ports: z
    .string()
    .max(2048)
    .regex(new RegExp(`^${PORT_ENTRY}(?:,${PORT_ENTRY}){0,99}$`))
    .refine(acceptedBy(parsePortList), 'at most 100 ports in all; a range runs upwards')
    .optional()
    .describe(
      'Ports and ranges, comma-separated (22,80,8000-8010); at most 100. Default: the catalog.',
    ),
});
export type ScanPortsParams = z.input<typeof scanPortsParamsSchema>;

// --- Data ---

const checkedAt = z.iso.datetime().describe('Time of the check, ISO 8601 UTC with milliseconds');

const tlsSchema = z
  .strictObject({
    issuer: z.string().describe('Issuer organisation (or common name)'),
    subject: z.string().describe('Subject common name'),
    valid_from: z.string().nullable().describe('Start of validity, ISO 8601'),
    valid_to: z.string().nullable().describe('Expiry, ISO 8601'),
    days_left: z.int().nullable().describe('Whole days until expiry; negative once expired'),
    trusted: z.boolean().describe('The chain is trusted and valid for the host name'),
    error: z
      .string()
      .nullable()
      .describe('Why it is not trusted (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, …)'),
    protocol: z.string().nullable().describe('Negotiated TLS version (TLSv1.3)'),
    cipher: z.string().nullable().describe('Negotiated cipher suite, OpenSSL name'),
    alpn: z
      .string()
      .nullable()
      .describe('What the server picks when offered h2 and http/1.1 (RFC 7301); null: neither'),
  })
  .nullable()
  .describe(
    'Added: certificate and connection facts for https targets (GET /api/tls inspects in depth); null for http or when TLS never started',
  );

/** `GET /api/down` data (SPEC 2.12). */
export const siteCheckDataSchema = z.strictObject({
  url: z.string().describe('Normalised URL checked, with the scheme used'),
  is_up: z.boolean().describe('An HTTP answer below 500 arrived'),
  status_code: z
    .int()
    .nullable()
    .describe('HTTP status of the final answer; null when there was none'),
  status_text: z.string().describe('Standard reason phrase of the status; "" without an answer'),
  response_time_ms: z
    .number()
    .nullable()
    .describe(
      'Milliseconds from the start to the final response headers (DNS and redirects included); null when down before an answer',
    ),
  server: z.string().describe('Server header; "" when absent'),
  content_type: z.string().describe('Content-Type header; "" when absent'),
  powered_by: z.string().nullable().describe('X-Powered-By header, or null'),
  note: z
    .string()
    .nullable()
    .describe(
      'Why the site is down, or what else to know (http fallback, capped body); null otherwise',
    ),
  checked_at: checkedAt,
  final_url: z.string().describe('Added: the URL after redirects'),
  redirects: z.int().describe('Added: redirects followed (at most 5)'),
  ip: z.string().nullable().describe('Added: the address connected to'),
  tls: tlsSchema,
});
export type SiteCheckData = z.infer<typeof siteCheckDataSchema>;

const findingSchema = z.strictObject({
  test: z
    .string()
    .describe('Test name (Observatory test, or permissions-policy / information-disclosure)'),
  title: z.string().describe('Human title of the test'),
  header: z
    .string()
    .describe('Header(s) the test reads; "" for Subresource Integrity (reads the HTML)'),
  present: z
    .boolean()
    .describe('Whether the header (or cookies, a redirect, external scripts) was present'),
  value: z.string().nullable().describe('The value examined (at most 1024 characters)'),
  result: z
    .string()
    .describe('Result id (the Observatory expectation names, e.g. csp-implemented-with-no-unsafe)'),
  pass: z.boolean().describe('Whether the result passes'),
  score_modifier: z.int().describe('Points this result adds to the score (score table)'),
  description: z.string().describe('What the result means'),
  recommendation: z.string().describe('What to change; "" when nothing needs to'),
});

/** `GET /api/security-headers` data. */
export const securityHeadersDataSchema = z.strictObject({
  url: z.string().describe('The URL graded (after redirects)'),
  status_code: z.int().describe('HTTP status of the graded answer'),
  score: z
    .int()
    .describe("Score with netdiag's additions; never below 0, can exceed 100 with bonuses"),
  grade: z.enum(SECURITY_GRADES).describe('Grade of `score`'),
  tests_passed: z.int().describe('Tests passed (of tests_quantity)'),
  tests_failed: z.int().describe('Tests failed'),
  tests_quantity: z.int().describe('Tests run (14)'),
  observatory: z
    .strictObject({
      score: z.int().describe('Observatory score (its 12 tests only)'),
      grade: z.string().describe('Observatory grade'),
      tests_passed: z.int().describe('Observatory tests passed'),
      tests_failed: z.int().describe('Observatory tests failed'),
      tests_quantity: z.int().describe('Observatory tests run (12)'),
      algorithm_version: z.int().describe('Observatory algorithm version followed (6)'),
    })
    .describe("The MDN HTTP Observatory's own figures, for comparison"),
  redirects: z.int().describe('Redirects followed to reach `url`'),
  note: z
    .string()
    .nullable()
    .describe(
      'Why the grade needs care (graded over http, error status, untrusted certificate, truncated body)',
    ),
  tls: tlsSchema,
  headers: z.array(findingSchema).describe('One entry per test'),
  checked_at: checkedAt,
});
export type SecurityHeadersData = z.infer<typeof securityHeadersDataSchema>;

const portResultSchema = z.strictObject({
  port: z.int().min(1).max(65535).describe('TCP port'),
  state: z
    .enum(['open', 'closed', 'filtered'])
    .describe(
      'open: handshake completed; closed: RST; filtered: no answer within the per-port timeout or ICMP unreachable',
    ),
  latency_ms: z
    .number()
    .nullable()
    .describe('Milliseconds to the handshake or RST; null when filtered'),
  service: z.string().describe('Service name from the catalog; "" outside it'),
  risk_level: z
    .enum(['info', 'low', 'medium', 'high', ''])
    .describe('How worrying an open port is; "" outside the catalog'),
  risk: z.string().describe('One line on what an open port means; "" outside the catalog'),
});

/** `GET /api/ports` data. */
export const portScanDataSchema = z.strictObject({
  host: z.string().describe('The host scanned, normalised (lower-case name or canonical IP)'),
  ip: z.string().describe('The address scanned (the first checked address, IPv4 preferred)'),
  ports_scanned: z.int().describe('Number of ports probed'),
  open_count: z.int().describe('Ports open'),
  closed_count: z.int().describe('Ports closed'),
  filtered_count: z.int().describe('Ports filtered'),
  open_ports: z.array(z.int()).describe('Open ports, ascending'),
  accepts_everything: z
    .boolean()
    .describe(
      'At least 90 % of at least 10 ports answered open: a firewall or proxy accepting every connection, so "open" proves little',
    ),
  note: z.string().nullable().describe('Why the result needs care, or null'),
  port_timeout_ms: z.int().describe('Per-port connect timeout used'),
  duration_ms: z.int().describe('Duration of the scan'),
  scanned_at: z.iso.datetime().describe('Start of the scan, ISO 8601 UTC with milliseconds'),
  results: z.array(portResultSchema).describe('One entry per port, ascending'),
});
export type PortScanData = z.infer<typeof portScanDataSchema>;
