import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../../test/fixtures/scan-input.js';
import { checkCsp, MAX_META_POLICY_BYTES } from './csp.js';

/** The check of `policy` as the only `Content-Security-Policy` header of a page (https). */
function check(policy: string, url = 'https://site.example/'): string {
  return checkCsp(pageScanInput({ url, headers: { 'content-security-policy': [policy] } })).result;
}

/** `count` distinct https host sources. */
const hosts = (count: number) =>
  Array.from({ length: count }, (_, i) => `https://h${i}.example`).join(' ');

describe('checkCsp findings', () => {
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
    // Upstream's collator order: "httä" sorts before "http://a", which so survives the prefix
    // rule ("htt" drops "httä") and is an insecure source.
    ["default-src 'self' htt httä http://a", 'csp-implemented-with-insecure-scheme'],
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

describe(`<meta> policies: at most ${MAX_META_POLICY_BYTES} bytes in all (a deliberate difference)`, () => {
  /** The check of a page whose `<meta>` policies are `policies`. */
  const meta = (...policies: string[]) =>
    checkCsp(pageScanInput({ httpEquiv: { 'content-security-policy': policies } }));
  /** `default-src 'self'` and an img-src padded to `bytes` in UTF-8. */
  const padded = (bytes: number, unit = 'a') => {
    const head = "default-src 'self'; img-src ";
    const room = bytes - Buffer.byteLength(head);
    return (
      head +
      unit.repeat(Math.floor(room / Buffer.byteLength(unit))) +
      'b'.repeat(room % Buffer.byteLength(unit))
    );
  };

  test('a policy at the cap is graded; one byte more is an invalid policy', () => {
    expect(Buffer.byteLength(padded(MAX_META_POLICY_BYTES))).toBe(MAX_META_POLICY_BYTES);
    expect(meta(padded(MAX_META_POLICY_BYTES)).result).toBe('csp-implemented-with-no-unsafe');
    expect(meta(padded(MAX_META_POLICY_BYTES + 1))).toMatchObject({
      result: 'csp-header-invalid',
      pass: false,
      present: true,
    });
  });

  test('counted in UTF-8 bytes, over all the tags of the page', () => {
    expect(meta(padded(MAX_META_POLICY_BYTES + 1, 'é')).result).toBe('csp-header-invalid');
    const half = padded(MAX_META_POLICY_BYTES / 2);
    expect(meta(half, half).result).toBe('csp-implemented-with-no-unsafe');
    expect(meta(half, `${half}b`).result).toBe('csp-header-invalid');
  });

  test('headers are not counted (they stop at 16 KiB)', () => {
    const input = pageScanInput({
      headers: { 'content-security-policy': [padded(MAX_META_POLICY_BYTES / 4)] },
      httpEquiv: { 'content-security-policy': [padded(MAX_META_POLICY_BYTES)] },
    });
    expect(checkCsp(input).result).toBe('csp-implemented-with-no-unsafe');
  });
});
