/**
 * `GET /api/security-headers` (a tool endpoint, SPEC §4 behaviour 6), behind the SSRF guard.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { GUARD } from '../site/guard-notes.js';
import { securityHeadersDataSchema, securityHeadersParamsSchema } from './schema.js';

export const gradeSecurityHeaders = defineCapability({
  id: 'gradeSecurityHeaders',
  params: securityHeadersParamsSchema,
  data: securityHeadersDataSchema,
  limit: 'tool',
  run: (engine, params, context) => engine.securityHeaders(params.url, context),
  http: {
    method: 'get',
    path: '/api/security-headers',
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
    paramExamples: { url: 'example.com' },
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
  },
  tool: {
    name: 'grade_security_headers',
    title: 'Grade security headers',
    description:
      "Grades a site's HTTP security headers (CSP, HSTS, X-Frame-Options, cookies, CORS, SRI, …) " +
      'the way the MDN HTTP Observatory does, with a score, a grade and a finding per test. ' +
      'Public targets only. Same answer as GET /api/security-headers.',
    probe: true,
    openWorld: true,
  },
  cli: { command: 'security-headers', operand: 'url' },
});
