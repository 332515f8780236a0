import { describe, expect, test } from 'vitest';
import { isNameServerKey } from './whois-lines.js';

describe('isNameServerKey', () => {
  test('numbered and plain name-server keys, and others', () => {
    for (const key of ['nserver', 'name server', 'name server 2', 'nserver2', 'nameserver 10']) {
      expect(isNameServerKey(key)).toBe(true);
    }
    // Only a trailing number goes ("nserver 2" → "nserver"); a digit elsewhere stays.
    for (const key of ['registrar', 'name', '2', 'name server x', '', 'n2server', 'nserver 2x']) {
      expect(isNameServerKey(key)).toBe(false);
    }
  });
});
