/**
 * `GET /api/down` (SPEC 2.12): parameters and data; the TLS summary is shared with the
 * security-headers grade.
 * @module
 */
import { z } from 'zod';
import { probeUrlInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';

// --- Parameters ---

export const checkSiteParamsSchema = parameters({
  url: probeUrlInput.describe('URL or host name (http/https only; scheme optional).'),
});
export type CheckSiteParams = z.input<typeof checkSiteParamsSchema>;

// --- Data ---

const checkedAt = z.iso.datetime().describe('Time of the check, ISO 8601 UTC with milliseconds');

export const tlsSummarySchema = z
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
  tls: tlsSummarySchema,
});
export type SiteCheckData = z.infer<typeof siteCheckDataSchema>;
