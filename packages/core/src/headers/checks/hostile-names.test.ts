/**
 * Names from a hostile site that are also names of Object.prototype: read as text, never as the
 * prototype's members.
 */
import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../../test/fixtures/scan-input.js';
import { scanHtml } from '../html.js';
import { checkCoep, checkCoop } from './cross-origin-policies.js';

describe('prototype names in headers and pages', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'Cross-Origin-*-Policy: %s is an invalid policy',
    (token) => {
      const coop = checkCoop(pageScanInput({ headers: { 'cross-origin-opener-policy': [token] } }));
      const coep = checkCoep(
        pageScanInput({ headers: { 'cross-origin-embedder-policy': [token] } }),
      );
      expect(coop.result).toBe('coop-header-invalid');
      expect(coep.result).toBe('coep-header-invalid');
    },
  );

  test('<meta http-equiv="__proto__"> and "constructor" are kept as any other name', () => {
    const facts = scanHtml(
      '<meta http-equiv="__proto__" content="a"><meta http-equiv="constructor" content="b">',
    );
    const proto = '__proto__';
    expect(Object.getOwnPropertyDescriptor(facts.httpEquiv, proto)?.value).toEqual(['a']);
    expect(facts.httpEquiv['constructor']).toEqual(['b']);
    expect(facts.httpEquiv['content-security-policy']).toBeUndefined();
  });
});
