import { type HttpTarget, startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type HttpsTarget,
  opensslAvailable,
  startHttpsTarget,
} from '../../../../test-utils/src/https-target.js';
import { CORS_PROBE_ORIGIN, gradeSecurityHeaders } from './grade-security-headers.js';

const allowedTargets = ['127.0.0.2/32', '127.0.0.3/32'];
const now = () => Date.parse('2026-11-21T10:00:00.000Z');

const STRONG = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; form-action 'self'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'permissions-policy': 'camera=(), geolocation=(self)',
  'set-cookie': '__Host-sessionid=x; Path=/; Secure; HttpOnly; SameSite=Strict',
};

describe('gradeSecurityHeaders over plain HTTP (loopback)', () => {
  let weak: HttpTarget;
  beforeAll(async () => {
    weak = await startHttpTarget({
      host: '127.0.0.2',
      routes: {
        '/': (req, res) =>
          res
            .writeHead(200, {
              'content-type': 'text/html',
              server: 'nginx/1.18.0 (Ubuntu)',
              'x-powered-by': 'PHP/8.1.2',
              'set-cookie': ['SESSIONID=abc; Path=/', 'csrftoken=1; Path=/; Secure'],
              'access-control-allow-origin': req.headers.origin ?? '',
              'access-control-allow-credentials': 'true',
            })
            .end('<html><head><script src="http://cdn.example.net/x.js"></script></head></html>'),
      },
    });
  });
  afterAll(() => weak.close());

  test('HSTS sent over plain HTTP: present, not implemented, and noted as ignored', async () => {
    const plain = await startHttpTarget({
      host: '127.0.0.2',
      routes: {
        '/': (_req, res) =>
          res
            .writeHead(200, {
              'content-type': 'text/plain',
              'strict-transport-security': 'max-age=63072000',
            })
            .end('hi'),
      },
    });
    try {
      const result = await gradeSecurityHeaders(`http://127.0.0.2:${plain.port}/`, {
        allowedTargets,
        checkRedirection: false,
      });
      const hsts = result.headers.find((h) => h.test === 'strict-transport-security');
      expect(hsts).toMatchObject({
        present: true,
        value: 'max-age=63072000',
        result: 'hsts-not-implemented-no-https',
        pass: false,
      });
      expect(result.note).toMatch(
        /sent over plain HTTP, where browsers ignore it \(RFC 6797 §8\.1\)/,
      );
    } finally {
      await plain.close();
    }
  });

  test('no scheme: https fails, the http answer is graded and the note says so', async () => {
    const result = await gradeSecurityHeaders(`127.0.0.2:${weak.port}`, {
      allowedTargets,
      httpPort: weak.port,
      now,
    });
    expect(result.url).toBe(`http://127.0.0.2:${weak.port}/`);
    expect(result.status_code).toBe(200);
    expect(result.note).toMatch(
      /HTTPS did not answer \(TLS failed.*\); the HTTP answer was graded/,
    );
    expect(result.checked_at).toBe('2026-11-21T10:00:00.000Z');
    const row = (test: string) => result.headers.find((h) => h.test === test);
    expect(row('content-security-policy')).toMatchObject({
      present: false,
      value: null,
      result: 'csp-not-implemented',
      pass: false,
      score_modifier: -25,
    });
    expect(row('content-security-policy')?.recommendation).toMatch(/Content-Security-Policy/);
    expect(row('strict-transport-security')?.result).toBe('hsts-not-implemented-no-https');
    expect(row('cross-origin-resource-sharing')).toMatchObject({
      result: 'cross-origin-resource-sharing-implemented-with-universal-access',
      value: CORS_PROBE_ORIGIN,
      score_modifier: -50,
    });
    expect(row('cookies')).toMatchObject({
      result: 'cookies-session-without-secure-flag',
      value: 'SESSIONID, csrftoken',
      score_modifier: -40,
    });
    expect(row('redirection')?.result).toBe('redirection-missing');
    expect(row('subresource-integrity')?.result).toBe(
      'sri-not-implemented-and-external-scripts-not-loaded-securely',
    );
    expect(row('information-disclosure')).toMatchObject({
      result: 'information-disclosure-version',
      present: true,
      value: 'server: nginx/1.18.0 (Ubuntu); x-powered-by: PHP/8.1.2',
      score_modifier: -10,
    });
    expect(row('permissions-policy')?.result).toBe('permissions-policy-not-implemented');
    expect(result.headers).toHaveLength(14);
    expect(result.score).toBe(0);
    expect(result.grade).toBe('F');
    expect(result.observatory).toMatchObject({
      score: 0,
      grade: 'F',
      tests_quantity: 12,
      algorithm_version: 6,
    });
    expect(result.tests_quantity).toBe(14);
    expect(result.tests_passed + result.tests_failed).toBe(14);
  });

  test('an explicit https:// URL that cannot connect is an error, not a fallback', async () => {
    await expect(
      gradeSecurityHeaders(`https://127.0.0.2:${weak.port}/`, {
        allowedTargets,
        httpPort: weak.port,
      }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_ERROR', kind: 'tls' });
  });

  test('a blocked target is refused and never contacted', async () => {
    const before = weak.connections;
    await expect(
      gradeSecurityHeaders(`http://127.0.0.2:${weak.port}/`, { httpPort: weak.port }),
    ).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    expect(weak.connections).toBe(before);
  });
});

describe.skipIf(!opensslAvailable())('gradeSecurityHeaders over HTTPS (loopback)', () => {
  let secure: HttpsTarget;
  let redirector: HttpTarget;
  beforeAll(async () => {
    secure = await startHttpsTarget({
      host: '127.0.0.3',
      names: ['secure.fixture.test'],
      ips: ['127.0.0.3'],
      routes: {
        '/': (_req, res) => res.writeHead(200, STRONG).end('<html><body>ok</body></html>'),
      },
    });
    redirector = await startHttpTarget({
      host: '127.0.0.3',
      routes: {
        '*': (req, res) => res.writeHead(301, { location: `${secure.url}${req.url}` }).end(),
      },
    });
  });
  afterAll(async () => {
    await secure.close();
    await redirector.close();
  });

  test('a well-configured site earns A+ with bonuses; every row passes', async () => {
    const result = await gradeSecurityHeaders(`${secure.url}/`, {
      allowedTargets,
      ca: secure.cert,
      httpPort: redirector.port,
      now,
    });
    const failing = result.headers.filter((h) => !h.pass).map((h) => h.result);
    expect(failing).toEqual([]);
    expect(result.note).toBeNull();
    expect(result.redirects).toBe(0);
    const results = Object.fromEntries(result.headers.map((h) => [h.test, h.result]));
    expect(results).toMatchObject({
      'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
      'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
      'x-frame-options': 'x-frame-options-implemented-via-csp',
      redirection: 'redirection-to-https',
      cookies: 'cookies-secure-with-httponly-sessions-and-samesite',
      'permissions-policy': 'permissions-policy-implemented',
      'information-disclosure': 'information-disclosure-none',
    });
    // 100 + 10 csp + 5 xfo + 5 referrer + 10 corp + 10 coop + 10 coep + 5 cookies + 5 pp
    expect(result.observatory.score).toBe(155);
    expect(result.score).toBe(160);
    expect(result.grade).toBe('A+');
  });

  test('an untrusted certificate is graded, with hsts-invalid-cert and a note', async () => {
    const result = await gradeSecurityHeaders(`${secure.url}/`, {
      allowedTargets,
      httpPort: redirector.port,
    });
    const hsts = result.headers.find((h) => h.test === 'strict-transport-security');
    expect(hsts?.result).toBe('hsts-invalid-cert');
    expect(result.headers.find((h) => h.test === 'redirection')?.result).toBe(
      'redirection-invalid-cert',
    );
    expect(result.note).toMatch(/certificate is not trusted/);
  });
});
