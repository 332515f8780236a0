/** Presentation of the issue-19 types from rdata, and the fallback for malformed rdata. */
import { describe, expect, test } from 'vitest';
import { base32hex, keyTag, readTypeBitmap } from './resolver-present-modern.js';
import { toDnsRecord } from './resolver-records.js';

describe('malformed rdata falls back to the RFC 3597 generic form', () => {
  test('a CDS too short for its fields', () => {
    const record = toDnsRecord({ type: 'CDS', name: 'x.test', ttl: 1, data: Buffer.from([1]) });
    expect(record).toMatchObject({ type: 'CDS', typeCode: 59, data: '\\# 1 01', value: '01' });
  });

  test('an HTTPS record whose SvcParam runs past the rdata', () => {
    const rdata = Buffer.from('0001000001000a', 'hex');
    const record = toDnsRecord({ type: 'UNKNOWN_65', name: 'x.test', ttl: 1, data: rdata });
    expect(record).toMatchObject({ type: 'HTTPS', typeCode: 65, data: '\\# 7 0001000001000A' });
  });
});

test('the NSEC type bitmap of RFC 4034 §4.3, plus a second window', () => {
  // Window 0, 6 octets: A (1), MX (15), RRSIG (46), NSEC (47) — the RFC's example.
  const window0 = Buffer.from('0006400100000003', 'hex');
  // Window 4 (types 1024–1279), 27 octets: bit 210 of the window is type 1234.
  const window4 = Buffer.alloc(2 + 27);
  window4[0] = 4;
  window4[1] = 27;
  window4[2 + 26] = 0x20;
  expect(readTypeBitmap(Buffer.concat([window0, window4]), 0)).toEqual([1, 15, 46, 47, 1234]);
});

test('base32hex of RFC 4648 §10 test vectors (no padding)', () => {
  expect(base32hex(Buffer.from('f'))).toBe('CO');
  expect(base32hex(Buffer.from('fooba'))).toBe('CPNMUOJ1');
  expect(base32hex(Buffer.from('foobar'))).toBe('CPNMUOJ1E8');
});

test('key tag of the DNSKEY of RFC 4034 §5.4 (example of a DS: key tag 60485)', () => {
  const rdata = Buffer.concat([
    Buffer.from([0x01, 0x00, 3, 5]),
    Buffer.from(
      'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==',
      'base64',
    ),
  ]);
  expect(keyTag(rdata)).toBe(60485);
});
