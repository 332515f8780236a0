/**
 * `GET /api/down` (SPEC 2.12): is a web site up? Behind the SSRF guard (CONTRACT §4).
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { GUARD } from './guard-notes.js';
import { checkSiteParamsSchema, siteCheckDataSchema } from './schema.js';

export const checkSite = defineCapability({
  id: 'checkSite',
  params: checkSiteParamsSchema,
  data: siteCheckDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.checkSite(params.url, context),
  http: {
    method: 'get',
    path: '/api/down',
    tag: 'Probes',
    summary: 'Is a web site up? Status, response time, server and TLS certificate facts',
    description:
      'GET with redirects followed. Without a scheme https is tried first, then http when https ' +
      'cannot connect (refused, unreachable, connect timeout, no TLS), and `note` says so. Up = an ' +
      'HTTP answer below 500. A site that is down is a 200 with is_up false and `note` saying why ' +
      '(DNS failure, refused, timeout, TLS error, redirect loop, 5xx); an untrusted certificate ' +
      `counts as down (TLS error) and nothing is sent. ${GUARD}`,
    paramExamples: { url: 'example.com' },
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
  },
  tool: {
    name: 'check_site',
    title: 'Is a web site up?',
    description:
      'Fetches a URL (redirects followed) and says whether the site is up, with status, ' +
      'response time, server and certificate facts; a down site comes with the reason. Public ' +
      'targets only. Same answer as GET /api/down.',
    probe: true,
    // As GET /api/down: SPEC §8 gives the tool limit to the scans and graders, not the site check.,
    openWorld: true,
  },
  cli: { command: 'down', operand: 'url' },
});
