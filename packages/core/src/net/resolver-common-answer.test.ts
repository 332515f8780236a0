import dgram from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { prerequisite, startNsd, tempDir, toolAvailable } from '@netdiag/test-utils';
import type * as packet from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { RecordType } from './dns-types.js';
import { decodeCommonAnswer } from './resolver-common-answer.js';
import { extendedDnsErrors, toDnsRecord } from './resolver-records.js';
import {
  buildQuery,
  type DecodedMessage,
  decodeAnyAnswer,
  matchResponse,
} from './resolver-wire.js';

/** What the resolver reads from a decoded answer (resolver.ts `toResponse`, the TC check). */
function seen(message: DecodedMessage | undefined) {
  if (message === undefined) return undefined;
  const records = (list: DecodedMessage['answers']) =>
    (list ?? [])
      .filter((a) => ((a as { class?: string }).class ?? 'IN') === 'IN')
      .map((a) => toDnsRecord(a as Parameters<typeof toDnsRecord>[0], { rdata: true }))
      .filter((r) => r !== undefined);
  return {
    question: message.questions,
    tc: message.flag_tc === true,
    ad: message.flag_ad === true,
    rcode: message.rcode ?? 'NOERROR',
    answers: records(message.answers),
    authority: records(message.authorities),
    extendedErrors: extendedDnsErrors(message.additionals),
  };
}

const dnsPacket = createRequire(import.meta.url)('dns-packet') as typeof packet;

function attempt<T>(run: () => T): T | 'throws' {
  try {
    return run();
  } catch {
    return 'throws';
  }
}

interface Shape {
  flags: number;
  answers: { type: 'A' | 'AAAA'; ttl: number; data: Uint8Array }[];
  opt: boolean;
  /** An NS record of the query name's parent in the authority section, names compressed. */
  ns?: boolean;
  /** A CNAME first, to `cdn.` and a pointer to the question's name. */
  cname?: boolean;
}

/** An answer as a server writes it: the question echoed, owner names as pointers to it. */
function answerBytes(query: Buffer, shape: Shape): Buffer {
  const questionEnd = query.length - (query.readUInt16BE(10) === 1 ? 11 : 0);
  const parts: Buffer[] = [Buffer.from(query.subarray(0, questionEnd))];
  const header = parts[0] as Buffer;
  header.writeUInt16BE(shape.flags, 2);
  header.writeUInt16BE(shape.answers.length + (shape.cname ? 1 : 0), 6);
  if (shape.cname) {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(5, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(300, 6);
    rr.writeUInt16BE(6, 10);
    parts.push(rr, Buffer.from([3, 99, 100, 110, 0xc0, 12]));
  }
  header.writeUInt16BE(shape.ns ? 1 : 0, 8);
  header.writeUInt16BE(shape.opt ? 1 : 0, 10);
  for (const answer of shape.answers) {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(answer.type === 'A' ? 1 : 28, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(answer.ttl, 6);
    rr.writeUInt16BE(answer.data.length, 10);
    parts.push(rr, Buffer.from(answer.data));
  }
  if (shape.ns) {
    // Owner: the question name without its first label (a pointer into it); target: `ns`
    // followed by a pointer to the owner.
    const parent = 12 + 1 + (query[12] as number);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc000 | parent, 0);
    rr.writeUInt16BE(2, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(3600, 6);
    rr.writeUInt16BE(5, 10);
    parts.push(rr, Buffer.from([2, 110, 115, 0xc0 | (parent >> 8), parent & 255]));
  }
  if (shape.opt) parts.push(Buffer.from([0, 0, 41, 4, 208, 0, 0, 0, 0, 0, 0]));
  return Buffer.concat(parts);
}

const label = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const shape: fc.Arbitrary<Shape> = fc.record({
  // QR set, opcode 0, TC clear, RCODE 0; AA, RD, RA, Z, AD, CD at random.
  flags: fc.integer({ min: 0, max: 0xffff }).map((bits) => 0x8000 | (bits & 0x05f0)),
  answers: fc.array(
    fc.oneof(
      fc.record({
        type: fc.constant('A' as const),
        ttl: fc.nat(),
        data: fc.uint8Array({ minLength: 4, maxLength: 4 }),
      }),
      fc.record({
        type: fc.constant('AAAA' as const),
        ttl: fc.nat(),
        data: fc.uint8Array({ minLength: 16, maxLength: 16 }),
      }),
    ),
    { maxLength: 6 },
  ),
  opt: fc.boolean(),
  ns: fc.boolean(),
  cname: fc.boolean(),
});

/** Names as servers write them, upper case included (dns-packet keeps the case). */
const anyName = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), { minLength: 0, maxLength: 4 })
  .map((labels) => (labels.length === 0 ? '.' : labels.join('.')));
const record: fc.Arbitrary<packet.Answer> = fc.oneof(
  fc.record({ type: fc.constant('A' as const), name: anyName, ttl: fc.nat(), data: fc.ipV4() }),
  fc.record({ type: fc.constant('AAAA' as const), name: anyName, ttl: fc.nat(), data: fc.ipV6() }),
  fc.record({ type: fc.constant('CNAME' as const), name: anyName, ttl: fc.nat(), data: anyName }),
  fc.record({ type: fc.constant('NS' as const), name: anyName, ttl: fc.nat(), data: anyName }),
) as fc.Arbitrary<packet.Answer>;
const soa = fc.record({
  type: fc.constant('SOA' as const),
  name: anyName,
  ttl: fc.nat(),
  data: fc.record({
    mname: anyName,
    rname: anyName,
    serial: fc.nat(),
    refresh: fc.nat(),
    retry: fc.nat(),
    expire: fc.nat(),
    minimum: fc.nat(),
  }),
}) as fc.Arbitrary<packet.Answer>;
const queryOf = (text: string, type: RecordType, edns: boolean) =>
  buildQuery(text, type, { edns, id: 0x1234 });

describe('decodeCommonAnswer', () => {
  test('reads common answers as dns-packet does (what the resolver uses of them)', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom<RecordType>('A', 'AAAA'),
        fc.boolean(),
        shape,
        (text, type, edns, s) => {
          const query = queryOf(text, type, edns);
          const message = answerBytes(query.wire, s);
          const common = decodeCommonAnswer(message, query);
          expect(common).toBeDefined();
          expect(seen(common)).toEqual(seen(decodeAnyAnswer(message, query)));
          expect(seen(matchResponse(message, query))).toEqual(seen(common));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('reads answers with every section written out (no compression) as dns-packet does', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom<RecordType>('A', 'AAAA', 'NS'),
        fc.boolean(),
        fc.integer({ min: 0, max: 0xffff }),
        fc.array(record, { maxLength: 5 }),
        fc.array(fc.oneof(record, soa), { maxLength: 3 }),
        fc.array(
          record.filter((r) => r.type === 'A' || r.type === 'AAAA'),
          { maxLength: 3 },
        ),
        (text, type, nx, bits, answers, authorities, glue) => {
          const query = queryOf(text, type, true);
          const message = dnsPacket.encode({
            type: 'response',
            id: query.id,
            flags: (bits & 0x05f0) | (nx ? 3 : 0),
            questions: [{ type: type as 'A' | 'AAAA' | 'NS', name: text, class: 'IN' }],
            answers,
            authorities,
            additionals: [
              ...glue,
              {
                type: 'OPT',
                name: '.',
                udpPayloadSize: 1232,
                flags: 0,
                options: [],
              } as unknown as packet.Answer,
            ],
          });
          const common = decodeCommonAnswer(message, query);
          expect(common).toBeDefined();
          expect(seen(common)).toEqual(seen(decodeAnyAnswer(message, query)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('any other message goes to dns-packet: never a different answer, never a throw', () => {
    // Every byte of a common answer changed, and every length cut: whatever the fast path still
    // reads must be what dns-packet reads, and the rest falls through to it.
    fc.assert(
      fc.property(
        name,
        fc.boolean(),
        shape,
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.nat(),
        (text, edns, s, at, byte, cut) => {
          const query = queryOf(text, 'A', edns);
          const message = answerBytes(query.wire, s);
          message[at % message.length] = byte;
          const cutAt = cut % (message.length + 1);
          for (const bytes of [message, message.subarray(0, cutAt)]) {
            const common = decodeCommonAnswer(bytes, query);
            const any = decodeAnyAnswer(bytes, query);
            if (common !== undefined) expect(seen(common)).toEqual(seen(any));
            // (Presenting what dns-packet decodes from a damaged record may throw: as before.)
            expect(attempt(() => seen(matchResponse(bytes, query)))).toEqual(
              attempt(() => seen(common ?? any)),
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('what it leaves to dns-packet', () => {
    const query = queryOf('host1.example', 'A', true);
    const base: Shape = {
      flags: 0x8180,
      answers: [{ type: 'A', ttl: 60, data: new Uint8Array([192, 0, 2, 1]) }],
      opt: true,
    };
    const ok = answerBytes(query.wire, base);
    expect(decodeCommonAnswer(ok, query)?.answers).toHaveLength(1);
    /** The answer with the 16-bit word at `offset` set to `value`. */
    const word =
      (offset: number, value: number) =>
      (m: Buffer): Buffer => {
        m.writeUInt16BE(value, offset);
        return m;
      };
    const variants: [string, (m: Buffer) => Buffer][] = [
      ['SERVFAIL', word(2, 0x8182)],
      ['TC set', word(2, 0x8380)],
      ['a query, not a response', word(2, 0x0180)],
      ['another id', word(0, 0x4321)],
      [
        'the question in upper case',
        (m) => {
          m.write('HOST1', 13, 'latin1');
          return m;
        },
      ],
      ['trailing bytes', (m) => Buffer.concat([m, Buffer.from([0])])],
      [
        'an OPT record with an option',
        (m) => {
          const opt = Buffer.from([0, 0, 41, 4, 208, 0, 0, 0, 0, 0, 6, 0, 15, 0, 2, 0, 18]);
          return Buffer.concat([m.subarray(0, m.length - 11), opt]);
        },
      ],
      [
        'a TXT record',
        (m) => {
          m.writeUInt16BE(16, 31 + 2);
          return m;
        },
      ],
      [
        'a glue record of another type',
        (m) => {
          const glue = Buffer.from([0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 0, 0, 2, 1, 0x61]);
          const out = Buffer.concat([
            m.subarray(0, m.length - 11),
            glue,
            m.subarray(m.length - 11),
          ]);
          out.writeUInt16BE(2, 10);
          return out;
        },
      ],
    ];
    for (const [why, change] of variants) {
      const message = change(Buffer.from(ok));
      expect(decodeCommonAnswer(message, query), why).toBeUndefined();
      expect(seen(matchResponse(message, query)), why).toEqual(
        seen(decodeAnyAnswer(message, query)),
      );
    }
    // A CNAME whose data is no name (the four address bytes, read as a pointer into the header).
    const cname = Buffer.from(ok);
    cname.writeUInt16BE(5, 12 + 'host1.example'.length + 2 + 4 + 2);
    expect(decodeCommonAnswer(cname, query)).toBeUndefined();
  });
});

/** One UDP exchange with a loopback server: the answer's bytes. */
function exchange(address: { host: string; port: number }, wire: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no answer'));
    }, 2000);
    socket.on('message', (message) => {
      clearTimeout(timer);
      socket.close();
      resolve(message);
    });
    socket.bind(0, '127.0.0.1', () => socket.send(wire, address.port, address.host));
  });
}

const nsd = prerequisite('nsd', toolAvailable('nsd', ['-v']), 'apt-get install nsd');

describe.skipIf(!nsd)('the answers of a real authoritative server (NSD)', () => {
  test('addresses, CNAME chains, NODATA and NXDOMAIN with its SOA take the fast path, alike', async () => {
    const dir = tempDir('netdiag-common-answer-');
    const file = join(dir, 'fast.test.zone');
    writeFileSync(
      file,
      [
        '$ORIGIN fast.test.',
        '$TTL 300',
        '@ SOA ns.fast.test. admin.fast.test. 7 3600 600 86400 120',
        '@ NS ns.fast.test.',
        'ns A 127.0.0.1',
        'www A 192.0.2.1',
        'www A 192.0.2.2',
        'v6 AAAA 2001:db8::1',
        'v6 AAAA 2001:db8:0:0:1::2',
        'alias CNAME www',
        'chain CNAME alias',
        '',
      ].join('\n'),
    );
    const server = await startNsd([{ name: 'fast.test', file }]);
    try {
      const cases: [string, RecordType][] = [
        ['www.fast.test', 'A'],
        ['v6.fast.test', 'AAAA'],
        ['alias.fast.test', 'A'],
        ['chain.fast.test', 'A'],
        ['www.fast.test', 'AAAA'],
        ['nothere.fast.test', 'A'],
        ['fast.test', 'NS'],
        ['fast.test', 'SOA'],
      ];
      for (const [text, type] of cases) {
        for (const edns of [true, false]) {
          const query = buildQuery(text, type, { edns });
          const message = await exchange(server, query.wire);
          const common = decodeCommonAnswer(message, query);
          expect(common, `${text} ${type}`).toBeDefined();
          expect(seen(common), `${text} ${type}`).toEqual(seen(decodeAnyAnswer(message, query)));
        }
      }
    } finally {
      await server.close();
    }
  });
});
