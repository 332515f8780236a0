import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../../test/fixtures/scan-input.js';
import { analyseCsp, checkCsp, cspVerdict } from './csp.js';
import { checkXFrameOptions } from './x-frame-options.js';

/** The check of `policy` as the only `Content-Security-Policy` header of a page (https). */
function check(policy: string, url = 'https://site.example/'): string {
  return checkCsp(pageScanInput({ url, headers: { 'content-security-policy': [policy] } })).result;
}

/** `count` distinct https host sources. */
const hosts = (count: number) =>
  Array.from({ length: count }, (_, i) => `https://h${i}.example`).join(' ');

describe('checkCsp findings from sources looked up in the sorted lists', () => {
  const rows: [policy: string, result: string][] = [
    ["default-src 'self' ftp://files.example", 'csp-implemented-with-insecure-scheme'],
    ["default-src 'self' FTP://Files.example", 'csp-implemented-with-insecure-scheme'],
    [`default-src 'self' ${hosts(2000)} http://z.example`, 'csp-implemented-with-insecure-scheme'],
    [`default-src 'self' ${hosts(2000)} ftp://a.example`, 'csp-implemented-with-insecure-scheme'],
    [
      `default-src 'self'; img-src ${hosts(500)} http://img.example`,
      'csp-implemented-with-insecure-scheme-in-passive-content-only',
    ],
    [
      "default-src 'self'; media-src ftp://media.example",
      'csp-implemented-with-insecure-scheme-in-passive-content-only',
    ],
    [`default-src ${hosts(1000)} https:`, 'csp-implemented-with-unsafe-inline'],
    ["default-src 'self'; object-src *", 'csp-implemented-with-unsafe-inline'],
    ["default-src 'self'; script-src 'self' data:", 'csp-implemented-with-unsafe-inline'],
    // A nonce or hash makes 'unsafe-inline' ignored (CSP3 §6.7.3.2), wherever it sorts.
    [`default-src ${hosts(300)} 'sha256-abc' 'unsafe-inline'`, 'csp-implemented-with-no-unsafe'],
    [
      "default-src 'self'; script-src 'nonce-abc' 'unsafe-inline'; style-src 'unsafe-inline'",
      'csp-implemented-with-unsafe-inline-in-style-src-only',
    ],
    ["default-src 'self'; script-src 'self' 'unsafe-eval'", 'csp-implemented-with-unsafe-eval'],
    ["default-src 'none'", 'csp-implemented-with-no-unsafe-default-src-none'],
    [`default-src ${hosts(1000)} 'self'`, 'csp-implemented-with-no-unsafe'],
    // Sources that only start like a finding's sources: no finding.
    ["default-src 'self' https://ftp.example http.example", 'csp-implemented-with-no-unsafe'],
  ];
  test.each(
    rows.map(([policy, result]) => ({
      policy,
      result,
      shown: policy.length > 70 ? `${policy.slice(0, 70)}…` : policy,
    })),
  )('$shown → $result', ({ policy, result }) => {
    expect(check(policy)).toBe(result);
  });

  test('a passing policy with report-uri given twice passes, with that finding', () => {
    const input = pageScanInput({
      headers: {
        'content-security-policy': ["default-src 'self'; report-uri /a; report-uri /b"],
      },
    });
    expect(checkCsp(input)).toMatchObject({
      result: 'csp-implemented-but-duplicate-directives',
      pass: true,
    });
  });

  test('insecure schemes on a plain-http page are no finding', () => {
    expect(check("default-src 'self' http://a.example", 'http://site.example/')).toBe(
      'csp-implemented-with-no-unsafe',
    );
  });
});

describe('one CSP analysis per scan, shared by the CSP test and X-Frame-Options', () => {
  /** Policies from a few directives and sources, in headers, `<meta>` tags or both. */
  const directive = fc
    .tuple(
      fc.constantFrom(
        'default-src',
        'script-src',
        'style-src',
        'img-src',
        'frame-ancestors',
        'report-uri',
        'sandbox',
        'bogus',
      ),
      fc.array(
        fc.constantFrom(
          "'self'",
          "'none'",
          "'unsafe-inline'",
          "'unsafe-eval'",
          "'strict-dynamic'",
          "'nonce-abc'",
          'https:',
          'http://a.example',
          'data:',
          '*',
          'b.example',
        ),
        { maxLength: 4 },
      ),
    )
    .map(([name, sources]) => [name, ...sources].join(' '));
  const policies = fc.array(
    fc.array(directive, { maxLength: 4 }).map((d) => d.join('; ')),
    {
      maxLength: 2,
    },
  );
  const scan = fc
    .record({ headers: policies, meta: policies, http: fc.boolean() })
    .map(({ headers, meta, http }) =>
      pageScanInput({
        url: http ? 'http://site.example/' : 'https://site.example/',
        headers: headers.length > 0 ? { 'content-security-policy': headers } : {},
        httpEquiv: meta.length > 0 ? { 'content-security-policy': meta } : {},
      }),
    );

  test('the grade reads the same verdict as checkCsp, which adds the policy', () => {
    fc.assert(
      fc.property(scan, (input) => {
        const { policy, ...verdict } = checkCsp(input);
        expect(cspVerdict(input)).toEqual(verdict);
        // A second check of the same scan reads the same, policy included.
        expect(checkCsp(input)).toEqual({ ...verdict, policy });
      }),
      { numRuns: 2000 },
    );
  });

  test('X-Frame-Options counts frame-ancestors exactly when the reported policy has it', () => {
    fc.assert(
      fc.property(scan, (input) => {
        const viaCsp = checkXFrameOptions(input).result === 'x-frame-options-implemented-via-csp';
        // A fresh copy of the scan: checkCsp's own analysis, not the one X-Frame-Options made.
        const policy = checkCsp({ ...input }).policy;
        expect(viaCsp).toBe(policy !== null && 'frame-ancestors' in policy);
      }),
      { numRuns: 2000 },
    );
  });

  test('a scan is analysed once', () => {
    const input = pageScanInput({ headers: { 'content-security-policy': ["default-src 'self'"] } });
    expect(analyseCsp(input)).toBe(analyseCsp(input));
    expect(analyseCsp({ ...input })).not.toBe(analyseCsp(input));
  });
});
