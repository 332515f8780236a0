import { describe, expect, test } from 'vitest';
import { mxMatchesPattern, parseMtaStsPolicy } from './mta-sts-policy.js';

describe('parseMtaStsPolicy (RFC 8461 §3.2)', () => {
  test('the example policy of §3.2, CRLF line ends', () => {
    const policy = parseMtaStsPolicy(
      'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n',
    );
    expect(policy).toEqual({
      version: 'STSv1',
      mode: 'enforce',
      mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
      max_age: 604800,
      errors: [],
    });
  });

  test('LF line ends, spaces, unknown fields and repeated non-mx fields (first wins)', () => {
    const policy = parseMtaStsPolicy(
      '  version:STSv1\nmode:   testing\nfoo: bar\nmode: enforce\nmx: MX.Example.COM.\nmax_age: 86400\n\n',
    );
    expect(policy).toMatchObject({
      mode: 'testing',
      mx: ['mx.example.com'],
      max_age: 86400,
      errors: [],
    });
  });

  test('mode none needs no mx', () => {
    expect(parseMtaStsPolicy('version: STSv1\nmode: none\nmax_age: 0').errors).toEqual([]);
  });

  test.each([
    ['mode: enforce\nmx: a.example\nmax_age: 1', 'version: STSv1'],
    ['version: STSv2\nmode: enforce\nmx: a.example\nmax_age: 1', 'not STSv1'],
    ['version: STSv1\nmode: strict\nmx: a.example\nmax_age: 1', 'mode "strict"'],
    ['version: STSv1\nmx: a.example\nmax_age: 1', '"mode" line is missing'],
    ['version: STSv1\nmode: enforce\nmx: a.example', '"max_age" line is missing'],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 31557601', 'max_age "31557601"'],
    ['version: STSv1\nmode: enforce\nmax_age: 1', 'no "mx" line'],
    ['version: STSv1\nmode: enforce\nmx: *.*.example\nmax_age: 1', 'mx "*.*.example"'],
    ['version: STSv1\nmode enforce\nmx: a.example\nmax_age: 1', 'not a "key: value" line'],
  ])('%j → %s', (text, message) => {
    expect(parseMtaStsPolicy(text).errors.join(' | ')).toContain(message);
  });
});

describe('mxMatchesPattern (RFC 8461 §4.1)', () => {
  test.each([
    ['mail.example.com', 'mail.example.com', true],
    ['MAIL.example.com.', 'mail.example.com', true],
    ['mail.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['a.b.example.com', '*.example.com', false],
    ['mail.example.net', '*.example.com', false],
    ['mail.example.com', 'example.com', false],
  ])('%s vs %s → %s', (host, pattern, expected) => {
    expect(mxMatchesPattern(host, pattern)).toBe(expected);
  });
});
