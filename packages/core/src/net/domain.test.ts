import { describe, expect, test } from 'vitest';
import { normaliseDomain, registrableDomain } from './domain.js';

describe('normaliseDomain', () => {
  test.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['例え。テスト', 'xn--r8jz45g.xn--zckzah'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('%s → %s', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  test.each([
    ['', /Missing required parameter "domain"/],
    ['   ', /Missing required parameter/],
    ['localhost', /fully qualified/],
    ['a..com', /empty label/],
    [`${'a'.repeat(64)}.com`, /longer than 63/],
    [`${'abcdefghi.'.repeat(26)}com`, /at most 253/],
    ['-bad.com', /invalid label/],
    ['exa mple.com', /invalid label/],
    ['8.8.8.8', /not an IP address/],
    ['[::1]', /not an IP address/],
  ])('%s is rejected', (input, message) => {
    expect(() => normaliseDomain(input)).toThrow(message);
  });

  test('registrable domain follows the public suffix list', () => {
    expect(registrableDomain('www.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('a.b.example.com')).toBe('example.com');
    expect(registrableDomain('co.uk')).toBeUndefined();
  });
});
