/** `GET /api/tls`: the shape `checkTls` returns. @module */
import { z } from 'zod';
import { PORT } from '../ports/schema.js';
import { hostInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';

const TLS_GRADES = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F', 'T', 'M'] as const;
const VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
const PORT_PATTERN = new RegExp(`^${PORT}$`);

export const checkTlsParamsSchema = parameters({
  host: hostInput.describe('Host name or public IP of the TLS server.'),
  port: z.string().regex(PORT_PATTERN).optional().describe('TCP port (1–65535). Default 443.'),
  allow_port: z
    .string()
    .regex(PORT_PATTERN)
    .optional()
    .describe(
      'Repeat `port` here to check a well-known non-TLS port (SMTP 25, SSH 22, Redis 6379 and the other ports of services that do not speak TLS), which is refused otherwise; must equal `port`.',
    ),
});
export type CheckTlsParams = z.input<typeof checkTlsParamsSchema>;

/** One cipher suite the server accepted, with what its name and the handshake tell. */
export const suiteSchema = z.strictObject({
  name: z.string().describe('OpenSSL name'),
  iana: z.string().describe('IANA name'),
  key_exchange: z.string().describe('ECDHE, DHE, RSA, … (TLS 1.3: ECDHE, decided by the group)'),
  authentication: z.string().describe('RSA, ECDSA, anon; "certificate" for TLS 1.3'),
  cipher: z.string().describe('Bulk cipher (AES-128-GCM, CHACHA20-POLY1305, 3DES-EDE-CBC, …)'),
  bits: z.int().describe('Symmetric key bits (3DES counts 112)'),
  aead: z.boolean().describe('GCM, CCM or ChaCha20-Poly1305'),
  forward_secrecy: z.boolean().describe('Ephemeral (EC)DHE key exchange'),
  strength: z
    .enum(['strong', 'acceptable', 'weak', 'insecure'])
    .describe(
      'strong: AEAD + forward secrecy, ≥ 128 bits; acceptable: ≥ 128 bits but CBC or no forward secrecy; weak: 3DES, RC4 or < 128 bits; insecure: no encryption, no authentication, export',
    ),
  protocol: z.enum(VERSIONS),
  group: z.string().nullable().describe('Key-exchange group (X25519, prime256v1) or "DH"'),
  group_bits: z.int().nullable().describe('Size of the group or DH parameters'),
});

/** One certificate as the server presented it. */
export const certificateSchema = z.strictObject({
  subject: z.string(),
  issuer: z.string(),
  san: z.array(z.string()).describe('DNS names and IP addresses in subjectAltName'),
  key_type: z.string().describe('RSA, EC, Ed25519, …'),
  key_bits: z.int(),
  curve: z.string().nullable(),
  signature_algorithm: z.string().describe('sha256WithRSAEncryption, ecdsa-with-SHA256, …'),
  valid_from: z.iso.datetime(),
  valid_to: z.iso.datetime(),
  days_left: z.int().describe('Whole days until valid_to; negative once expired'),
  sha256: z.string().describe('SHA-256 fingerprint'),
  self_signed: z.boolean(),
  ca: z.boolean(),
});

export const tlsDataSchema = z.strictObject({
  host: z.string().describe('The host checked, normalised'),
  ip: z.string().describe('The address connected to (the first checked address)'),
  port: z.int(),
  servername: z.string().nullable().describe('SNI sent; null for IP literals'),
  protocols: z
    .array(
      z.strictObject({
        protocol: z.enum(['SSLv2', 'SSLv3', ...VERSIONS]),
        accepted: z.boolean().nullable().describe('null: not testable from this machine'),
        note: z.string(),
      }),
    )
    .describe('SSL 2.0 to TLS 1.3, each offered alone'),
  cipher_suites: z
    .array(
      z.strictObject({
        protocol: z.enum(VERSIONS),
        server_preference: z
          .boolean()
          .describe('The server picks by its own order (the list is in that order)'),
        suites: z.array(suiteSchema),
      }),
    )
    .describe('Accepted suites per accepted protocol'),
  negotiated: z
    .strictObject({ protocol: z.string(), cipher: z.string(), group: z.string().nullable() })
    .describe('What a default modern client gets'),
  certificates: z.array(certificateSchema).describe('The chain as served, leaf first'),
  chain: z.strictObject({
    served: z.int().describe('Certificates the server sent'),
    complete: z.boolean().describe('The served certificates lead to a root'),
    trusted: z.boolean().describe("Valid against Node's root store"),
    error: z.string().nullable().describe("OpenSSL's reason when not trusted"),
    hostname_match: z.boolean(),
    order: z
      .enum(['correct', 'wrong'])
      .nullable()
      .describe(
        'Each certificate followed by its issuer, as sent (read from a TLS 1.2 handshake); null when the server speaks only TLS 1.3, which encrypts the list',
      ),
    self_signed: z.boolean(),
    expired: z.boolean(),
    not_yet_valid: z.boolean(),
  }),
  alpn: z.strictObject({ h2: z.boolean(), http11: z.boolean() }),
  ocsp_stapling: z.boolean(),
  session_resumption: z.boolean(),
  hsts: z
    .strictObject({ max_age: z.int(), include_subdomains: z.boolean(), preload: z.boolean() })
    .nullable()
    .describe('Strict-Transport-Security of https://host:port/, or null'),
  not_testable: z.array(z.string()).describe('Checks this machine cannot perform'),
  grade: z
    .enum(TLS_GRADES)
    .describe('SSL Labs rating guide: A+ … F; T untrusted certificate; M name mismatch'),
  grade_ignoring_trust: z.enum(TLS_GRADES).describe('The grade if the certificate were trusted'),
  score: z.int().min(0).max(100),
  scores: z.strictObject({ protocol: z.number(), key_exchange: z.number(), cipher: z.number() }),
  caps: z
    .array(
      z.strictObject({
        grade: z.enum(TLS_GRADES),
        reason: z.string(),
        rule: z.string().describe('The guide version or SSL Labs change that set the rule'),
      }),
    )
    .describe('Every rule that capped (or lifted) the grade'),
  findings: z
    .array(
      z.strictObject({
        code: z
          .enum([
            'certificate_message_too_large',
            'too_many_certificates',
            'handshake_budget_spent',
          ])
          .describe('Stable identifier of the limit met'),
        message: z.string().describe('What was found and what netdiag did, in words'),
      }),
    )
    .describe(
      'Limits the server made the check meet: a Certificate message over 100 KiB (not read), more than 10 certificates (the first 10 reported), the handshake budget spent (suites left out); empty for a usual server',
    ),
  duration_ms: z.int(),
});
export type TlsData = z.infer<typeof tlsDataSchema>;
