import { describe, expect, test } from 'vitest';
import { isNameServerKey, normaliseKey, splitKeyValue, whoisEntries } from './whois-lines.js';

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

describe('splitKeyValue', () => {
  test('the usual lines, and what is not a key', () => {
    expect(splitKeyValue('Domain Name: EXAMPLE.COM')).toEqual({
      key: 'Domain Name',
      value: 'EXAMPLE.COM',
    });
    expect(splitKeyValue('Key  words   :  v')).toEqual({ key: 'Key  words', value: 'v' });
    expect(splitKeyValue('** Key_x-(y).: v')).toEqual({ key: '** Key_x-(y).', value: 'v' });
    expect(splitKeyValue('[Domain Name]   EXAMPLE.JP')).toEqual({
      key: 'Domain Name',
      value: 'EXAMPLE.JP',
    });
    expect(splitKeyValue('created............: 15.12.2015')).toEqual({
      key: 'created',
      value: '15.12.2015',
    });
    expect(splitKeyValue('Nom de domaine#. . . . .example.dz')).toEqual({
      key: 'Nom de domaine',
      value: 'example.dz',
    });
    expect(splitKeyValue('Registrar\tMarkMonitor')).toEqual({
      key: 'Registrar',
      value: 'MarkMonitor',
    });
    for (const line of [
      'https://x',
      '12:30',
      `${'k'.repeat(81)}: v`,
      'ns1.example.com 2001:db8::1',
    ]) {
      expect(splitKeyValue(line)).toBeUndefined();
    }
  });

  test('a value holding a line separator is no value (what `(.*)$` matched), in linear time', () => {
    // U+2028 inside the value: no layout reads the line; in the whitespace before it, it is
    // whitespace. Read by `\s*(.*)$`, a value of spaces before one took 0.27 s at 16 KiB.
    expect(splitKeyValue('Key: a\u2028b')).toBeUndefined();
    expect(splitKeyValue('Key:\u2028 b')).toEqual({ key: 'Key', value: 'b' });
    const start = performance.now();
    expect(splitKeyValue(`Key:${' '.repeat(256 * 1024)}x\u2028y`)).toBeUndefined();
    expect(splitKeyValue(`[Key]${' '.repeat(256 * 1024)}x\u2028y`)).toBeUndefined();
    expect(performance.now() - start).toBeLessThan(200);
  });
});

describe('normaliseKey', () => {
  test('registry spellings', () => {
    expect(normaliseKey('** Domain Name')).toBe('domain name');
    expect(normaliseKey('Creation Date (dd/mm/yyyy)')).toBe('creation date');
    expect(normaliseKey('paid-till')).toBe('paid till');
    expect(normaliseKey('Expires on..:')).toBe('expires');
    expect(normaliseKey('Servidor(es) de Nombres')).toBe('servidor de nombres');
  });
});

test('whoisEntries: objects, sections and heading blocks', () => {
  const entries = whoisEntries(
    'Domain Name: example.com\r\nName Servers:\r\n   ns1.example.com\r\n\r\ncontact: C1\r\ncreated: 2001-01-01\r\n',
  );
  expect(entries).toEqual([
    { key: 'domain name', value: 'example.com', section: '', object: 0, fromBlock: false },
    {
      key: 'name servers',
      value: 'ns1.example.com',
      section: 'name servers',
      object: 0,
      fromBlock: true,
    },
    { key: 'contact', value: 'C1', section: '', object: 1, fromBlock: false },
    { key: 'created', value: '2001-01-01', section: '', object: 1, fromBlock: false },
  ]);
});
