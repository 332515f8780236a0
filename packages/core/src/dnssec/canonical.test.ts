/** Canonical order and forms of RFC 4034 §6, with the RFC's own example. */
import { describe, expect, test } from 'vitest';
import type { DnsRecord } from '../net/dns-types.js';
import {
  canonicalRdata,
  canonicalRrset,
  compareNames,
  isSubdomain,
  nameWire,
} from './canonical.js';

describe('compareNames', () => {
  test('sorts the example of RFC 4034 §6.1', () => {
    // The RFC's list in its canonical order; its \200 label (one octet above 0x7f) is written as a
    // character above 0x7f, since labels are handled as UTF-8 text here.
    const ordered = [
      'example',
      'a.example',
      'yljkjljk.a.example',
      'Z.a.example',
      'zABC.a.EXAMPLE',
      'z.example',
      '\u0001.z.example',
      '*.z.example',
      '\u00c8.z.example',
    ];
    const shuffled = [...ordered].reverse();
    shuffled.sort(compareNames);
    expect(shuffled).toEqual(ordered);
  });

  test('a name equals itself whatever the case', () => {
    expect(compareNames('WWW.Example.', 'www.example')).toBe(0);
  });
});

test('nameWire is lower case, uncompressed, root-terminated', () => {
  expect(nameWire('WWW.Ex').toString('hex')).toBe('03777777026578' + '00');
  expect(nameWire('').toString('hex')).toBe('00');
});

test('isSubdomain compares whole labels', () => {
  expect(isSubdomain('a.example', 'example')).toBe(true);
  expect(isSubdomain('aexample', 'example')).toBe(false);
  expect(isSubdomain('example', '')).toBe(true);
});

function record(type: string, typeCode: number, rdata: string): DnsRecord {
  return { name: 'x', type, typeCode, ttl: 1, data: '', value: '', rdata };
}

describe('canonicalRdata', () => {
  test('lower-cases the names of an MX (RFC 4034 §6.2 item 3) but not a TXT', () => {
    // MX 10 A.Ex.
    const mx = record('MX', 15, `000a0141024578${'00'}`);
    expect(canonicalRdata(mx).toString('hex')).toBe('000a0161026578' + '00');
    const txt = record('TXT', 16, '024142');
    expect(canonicalRdata(txt).toString('hex')).toBe('024142');
  });

  test('leaves the NSEC next name alone (RFC 6840 §5.1)', () => {
    const nsec = record('NSEC', 47, '0141000006400000000003');
    expect(canonicalRdata(nsec).toString('hex')).toBe('0141000006400000000003');
  });

  test('sorts the RRset by rdata octets and drops duplicates (RFC 4034 §6.3)', () => {
    const set = [
      record('A', 1, 'c0000202'),
      record('A', 1, 'c0000201'),
      record('A', 1, 'c0000202'),
    ];
    expect(canonicalRrset(set).map((b) => b.toString('hex'))).toEqual(['c0000201', 'c0000202']);
  });
});
