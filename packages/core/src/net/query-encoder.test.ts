import * as packet from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { encodeQuery, FLAG_AD, FLAG_CD, FLAG_RD } from './query-encoder.js';

/** dns-packet names the types it knows; the rest go as UNKNOWN_<code>. */
const TYPES: [string, number][] = [
  ['A', 1],
  ['NS', 2],
  ['CNAME', 5],
  ['SOA', 6],
  ['PTR', 12],
  ['MX', 15],
  ['TXT', 16],
  ['AAAA', 28],
  ['SRV', 33],
  ['DS', 43],
  ['RRSIG', 46],
  ['DNSKEY', 48],
  ['UNKNOWN_65', 65],
  ['CAA', 257],
];

const label = fc.stringMatching(/^[a-z0-9_-]{1,63}$/);
const unicodeLabel = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 15 })
  // No dots (they separate labels) and no line terminators: dns-packet strips a dot next to a
  // line break (its trimming regex is multi-line), which no real name contains.
  .filter((l) => !/[.\n\r\u2028\u2029]/.test(l) && Buffer.byteLength(l) <= 63);
const name = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 6 }).map((l) => l.join('.')),
  fc.array(unicodeLabel, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')),
);

describe('encodeQuery', () => {
  test('writes the same bytes as dns-packet for any name, type, flags and EDNS choice', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom(...TYPES),
        fc.integer({ min: 0, max: 0xffff }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (qname, [typeName, typeCode], id, edns, dnssecOk, cd) => {
          const flags = FLAG_RD | FLAG_AD | (cd ? FLAG_CD : 0);
          const ours = encodeQuery({
            id,
            name: qname,
            typeCode,
            flags,
            ednsUdpSize: edns ? 1232 : undefined,
            dnssecOk: edns && dnssecOk,
          });
          const theirs = packet.encode({
            type: 'query',
            id,
            flags,
            questions: [{ type: typeName as packet.RecordType, name: qname, class: 'IN' }],
            additionals: edns
              ? [
                  {
                    type: 'OPT',
                    name: '.',
                    udpPayloadSize: 1232,
                    extendedRcode: 0,
                    ednsVersion: 0,
                    flags: dnssecOk ? packet.DNSSEC_OK : 0,
                    flag_do: dnssecOk,
                    options: [],
                  } as packet.Answer,
                ]
              : [],
          });
          expect(ours.toString('hex')).toBe(theirs.toString('hex'));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  test('the root name is a single zero byte', () => {
    const wire = encodeQuery({ id: 1, name: '', typeCode: 2, flags: FLAG_RD });
    expect(wire.toString('hex')).toBe('000101000001000000000000' + '00' + '0002' + '0001');
  });

  test('decodes back to the question asked', () => {
    const wire = encodeQuery({
      id: 4660,
      name: 'Mixed.Example.test',
      typeCode: 15,
      flags: FLAG_RD,
      ednsUdpSize: 1232,
      dnssecOk: true,
    });
    const decoded = packet.decode(wire);
    expect(decoded.id).toBe(4660);
    expect(decoded.questions).toEqual([{ name: 'Mixed.Example.test', type: 'MX', class: 'IN' }]);
    const opt = decoded.additionals?.[0] as {
      type: string;
      udpPayloadSize: number;
      flag_do: boolean;
    };
    expect(opt).toMatchObject({ type: 'OPT', udpPayloadSize: 1232, flag_do: true });
  });
});
