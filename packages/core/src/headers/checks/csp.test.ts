import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../../test/fixtures/scan-input.js';
import { checkCsp } from './csp.js';

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

  test('insecure schemes on a plain-http page are no finding', () => {
    expect(check("default-src 'self' http://a.example", 'http://site.example/')).toBe(
      'csp-implemented-with-no-unsafe',
    );
  });
});
