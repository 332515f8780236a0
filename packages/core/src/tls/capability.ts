/** `GET /api/tls`: TLS inspection and grading of a public host, a tool endpoint. @module */
import { defineCapability } from '../descriptor.js';
import { checkTlsParamsSchema, tlsDataSchema } from './schema.js';

const refused = (protocol: string) => ({ protocol, accepted: false, note: 'refused' });
const untestable = (protocol: string, name: string) => ({
  protocol,
  accepted: null,
  note: `not testable: this OpenSSL cannot offer ${name}`,
});

/** A TLS 1.3 suite of the example, negotiated over X25519. */
const tls13Suite = (name: string, cipher: string, bits: number) => ({
  name,
  iana: name,
  key_exchange: 'ECDHE',
  authentication: 'certificate',
  cipher,
  bits,
  aead: true,
  forward_secrecy: true,
  strength: 'strong',
  protocol: 'TLSv1.3',
  group: 'X25519',
  group_bits: 253,
});

/** A real answer (from the tests' TLS 1.3 server), with public example names. */
const EXAMPLE = {
  host: 'example.com',
  ip: '203.0.113.10',
  port: 443,
  servername: 'example.com',
  protocols: [
    untestable('SSLv2', 'SSL 2.0'),
    untestable('SSLv3', 'SSL 3.0'),
    refused('TLSv1'),
    refused('TLSv1.1'),
    refused('TLSv1.2'),
    {
      protocol: 'TLSv1.3',
      accepted: true,
      note: 'accepted (TLS_AES_256_GCM_SHA384)',
    },
  ],
  cipher_suites: [
    {
      protocol: 'TLSv1.3',
      server_preference: true,
      suites: [
        tls13Suite('TLS_AES_256_GCM_SHA384', 'AES-256-GCM', 256),
        tls13Suite('TLS_CHACHA20_POLY1305_SHA256', 'CHACHA20-POLY1305', 256),
        tls13Suite('TLS_AES_128_GCM_SHA256', 'AES-128-GCM', 128),
      ],
    },
  ],
  negotiated: {
    protocol: 'TLSv1.3',
    cipher: 'TLS_AES_256_GCM_SHA384',
    group: 'X25519',
  },
  certificates: [
    {
      subject: 'CN=example.com',
      issuer: 'CN=Example Issuing CA',
      san: ['example.com', 'www.example.com'],
      key_type: 'RSA',
      key_bits: 2048,
      curve: null,
      signature_algorithm: 'sha256WithRSAEncryption',
      valid_from: '2026-10-01T00:00:00.000Z',
      valid_to: '2026-12-30T00:00:00.000Z',
      days_left: 36,
      sha256:
        '78:B1:B7:05:D9:4D:D5:06:EA:80:E3:99:98:DC:A8:23:4E:5D:87:22:4B:57:6E:39:2F:7E:A9:A4:57:FB:91:45',
      self_signed: false,
      ca: false,
    },
    {
      subject: 'CN=Example Issuing CA',
      issuer: 'CN=Example Root CA',
      san: [],
      key_type: 'RSA',
      key_bits: 2048,
      curve: null,
      signature_algorithm: 'sha256WithRSAEncryption',
      valid_from: '2024-01-01T00:00:00.000Z',
      valid_to: '2029-01-01T00:00:00.000Z',
      days_left: 1498,
      sha256:
        '3F:3F:3A:76:CE:EE:A7:78:3E:4D:80:C7:05:79:88:6B:8B:D8:B7:AC:27:3C:B3:99:D9:B3:D4:7C:0F:9D:B9:BB',
      self_signed: false,
      ca: true,
    },
  ],
  chain: {
    served: 2,
    complete: true,
    trusted: true,
    error: null,
    hostname_match: true,
    order: null,
    self_signed: false,
    expired: false,
    not_yet_valid: false,
  },
  alpn: {
    h2: true,
    http11: true,
  },
  ocsp_stapling: true,
  session_resumption: true,
  hsts: {
    max_age: 63072000,
    include_subdomains: true,
    preload: false,
  },
  not_testable: [
    'SSL 2.0 and SSL 3.0 (the local OpenSSL 3 cannot offer them)',
    'TLS compression and secure renegotiation (Node does not expose them)',
    'TLS_FALLBACK_SCSV (Node cannot send it)',
  ],
  grade: 'A+',
  grade_ignoring_trust: 'A+',
  score: 93,
  scores: {
    protocol: 100,
    key_exchange: 90,
    cipher: 90,
  },
  caps: [
    {
      grade: 'A+',
      reason: 'HSTS with max-age of at least 6 months',
      rule: '2009e',
    },
  ],
  findings: [],
  duration_ms: 412,
};

export const checkTls = defineCapability({
  id: 'checkTls',
  params: checkTlsParamsSchema,
  data: tlsDataSchema,
  limit: 'tool',
  run: (engine, { host, port, allow_port }, context) =>
    engine.checkTls(
      {
        host,
        ...(port !== undefined ? { port } : {}),
        ...(allow_port !== undefined ? { allowPort: allow_port } : {}),
      },
      context,
    ),
  http: {
    method: 'get',
    path: '/api/tls',
    tag: 'Probes',
    summary: 'TLS protocols, cipher suites, certificate chain and an SSL Labs-style grade',
    description:
      'Resolves the host once through the SSRF guard, then handshakes only with the checked ' +
      'address: each protocol version alone (TLS 1.0–1.3; SSL 2.0/3.0 are reported as not ' +
      'testable, because the server-side OpenSSL 3 cannot offer them), the accepted cipher suites ' +
      "per protocol in the server's order of preference (offer all, note the choice, remove it, " +
      'repeat), the chain as served (subject, issuer, SANs, key, signature algorithm, validity, ' +
      "SHA-256), trust against Node's root store, the host-name match, ALPN (h2, http/1.1), a " +
      'stapled OCSP response, session resumption and HSTS (one HTTPS GET). The grade follows the ' +
      'SSL Labs SSL Server Rating Guide: score = 30 % protocol + 30 % key exchange + 40 % cipher, ' +
      'then caps, each named in `caps` with its rule (B for TLS 1.0/1.1, an incomplete chain, ' +
      'keys under 2048 bits or no forward secrecy; C without TLS 1.2; F for an expired ' +
      'certificate, anonymous suites or keys under 1024 bits; A+ with HSTS ≥ 6 months); T when ' +
      'the chain is not trusted and M when the certificate does not name the host, with ' +
      '`grade_ignoring_trust` giving the configuration grade. Each handshake has 5 s, the whole ' +
      'check 60 s. A host that refuses, resets or does not speak TLS is 502; no handshake in ' +
      'time 504. Limited like the other tool endpoints. Caps: handshakes go one at a time, at ' +
      'most 160 per check (a server accepting every suite OpenSSL 3.0 can offer needs 158; a ' +
      'typical one 30–50); 4 checks run at once on the server and 16 wait, beyond that 503 with ' +
      "Retry-After: 10. The TLS 1.2 Certificate message is read up to 100 KiB (OpenSSL's " +
      'default max_cert_list) and at most 10 certificates are reported; a server past either ' +
      'limit is named in `findings`. Well-known ports that do not speak TLS from the first byte ' +
      '(21, 22, 23, 25, 53, 110, 111, 119, 135, 139, 143, 389, 445, 587, 1433, 1521, 2049, 2375, ' +
      '3306, 3389, 5432, 5672, 5900, 6379, 11211, 27017; the mail ports speak STARTTLS) are 400 ' +
      'unless `allow_port` repeats the port, e.g. `port=6379&allow_port=6379` for a Redis with TLS.',
    paramExamples: { host: 'example.com', port: '443', allow_port: '443' },
    example: EXAMPLE,
    errors: [400, 403, 404, 502, 503, 504],
  },
  tool: {
    name: 'check_tls',
    title: 'Inspect and grade TLS',
    description:
      "A TLS server's protocols (TLS 1.0–1.3), cipher suites in server order, certificate chain " +
      '(expiry, days left, trust, host-name match), ALPN, OCSP stapling, HSTS and an SSL ' +
      'Labs-style grade with every cap named. port defaults to 443; a well-known non-TLS port ' +
      '(SMTP 25, SSH 22, Redis 6379, …) is refused unless allow_port repeats it. Public targets ' +
      'only. Same answer as GET /api/tls.',
    probe: true,
    openWorld: true,
  },
  cli: { command: 'tls', operand: 'host' },
});
