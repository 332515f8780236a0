/**
 * The usual answer read straight from the wire: the question echoed byte for byte, A, AAAA,
 * CNAME, NS and SOA records with plain names (letters, digits, `-`, `_`; compressed or not),
 * glue addresses in the additional section skipped (the resolver reads none of them but the
 * OPT record, which must carry no options), and RCODE NOERROR or NXDOMAIN. Nearly every answer a resolver gets has
 * this shape: an address, a CDN's CNAME chain, the zone's NS records an authoritative server
 * adds, the SOA of a negative answer (every DNSBL query of a clean address).
 *
 * dns-packet decodes any message into objects — the header, each name label by label, every
 * section — which was ~10 % of a query's CPU and much of its garbage at 50 queries in flight
 * (bench/dns/nsd.bench.ts); this reads only what the resolver uses. Kept for the figure only it
 * meets: 50 queries in flight at ≥ 0.8× c-ares's rate (BENCHMARKS.md, DNS resolver).
 * Anything else, or anything it is not sure of, returns `undefined` and goes to dns-packet,
 * which decides as before (a test compares the two on generated and damaged answers).
 * @module
 */
import { formatV4, formatV6 } from '../ip/address.js';
import { packetTypeName } from './resolver-records.js';
import type { DecodedMessage, Query } from './resolver-wire.js';

const TYPE_A = 1;
const TYPE_NS = 2;
const TYPE_CNAME = 5;
const TYPE_SOA = 6;
const TYPE_AAAA = 28;
const TYPE_OPT = 41;
const CLASS_IN = 1;
/** Names whose wire form dns-packet decodes back to the same text (no escapes needed). */
const PLAIN_NAME = /^[a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*$/;
/** RFC 1035 §2.3.4: 255 bytes on the wire, so at most 253 characters of text. */
const MAX_NAME_TEXT = 253;
/** Compression pointers followed in one name; each must point backwards, so loops end anyway. */
const MAX_POINTERS = 32;

/** A decoded resource record as dns-packet shapes it. */
type Rr = NonNullable<DecodedMessage['answers']>[number];

/** Where the last `readName` ended (the byte after the name as written at its offset). */
let nameEnd = 0;

/**
 * The name at `offset` (RFC 1035 §3.1, §4.1.4) as dns-packet writes it (labels joined by dots,
 * the root `.`), or `undefined` when it is not plain or not well formed. Sets `nameEnd`. With
 * `text` false it only checks the name and where it ends, and answers `''` (for names nobody
 * reads: the additional section's).
 */
function readName(message: Buffer, offset: number, query: Query, text = true): string | undefined {
  const length = message.length;
  let name = '';
  /** The length of the text so far, made or not (a dot between labels). */
  let size = 0;
  let at = offset;
  let end = -1;
  let pointers = 0;
  for (;;) {
    if (at >= length) return undefined;
    const label = message[at] as number;
    if (label === 0) {
      if (end < 0) end = at + 1;
      break;
    }
    if (label >= 0xc0) {
      if (at + 1 >= length) return undefined;
      const target = ((label & 0x3f) << 8) | (message[at + 1] as number);
      if (end < 0) end = at + 2;
      // The question's name, as sent: the usual target, known without reading it.
      if (target === 12) {
        size += size === 0 ? query.name.length : query.name.length + 1;
        if (size > MAX_NAME_TEXT) return undefined;
        if (text) name = name === '' ? query.name : `${name}.${query.name}`;
        break;
      }
      if (target >= at || ++pointers > MAX_POINTERS) return undefined;
      at = target;
      continue;
    }
    // 0x40 and 0x80 label types (RFC 6891 §5) are not names dns-packet reads either.
    if (label > 63 || at + 1 + label > length || !isPlainLabel(message, at + 1, at + 1 + label)) {
      return undefined;
    }
    size += size === 0 ? label : label + 1;
    if (size > MAX_NAME_TEXT) return undefined;
    if (text) {
      const part = message.toString('latin1', at + 1, at + 1 + label);
      name = name === '' ? part : `${name}.${part}`;
    }
    at += 1 + label;
  }
  nameEnd = end;
  return text ? (name === '' ? '.' : name) : '';
}

/** Whether bytes `start`…`end` are letters, digits, `-` or `_`. */
function isPlainLabel(message: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = message[i] as number;
    if (
      !(
        (c >= 97 && c <= 122) ||
        (c >= 65 && c <= 90) ||
        (c >= 48 && c <= 57) ||
        c === 45 ||
        c === 95
      )
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Reads `count` records from `offset` into `out` (undefined: skip them, only their OPT record
 * looked at). Returns the offset after them, or -1 when the fast path does not apply.
 */
function readRecords(
  message: Buffer,
  offset: number,
  count: number,
  query: Query,
  out: Rr[] | undefined,
): number {
  const length = message.length;
  let at = offset;
  for (let i = 0; i < count; i++) {
    let name: string | undefined;
    if (out === undefined) {
      // Additional records: only where their owner name ends matters.
      if (readName(message, at, query, false) === undefined) return -1;
    } else {
      name = readName(message, at, query);
      if (name === undefined) return -1;
    }
    at = nameEnd;
    if (at + 10 > length) return -1;
    const type = message.readUInt16BE(at);
    const klass = message.readUInt16BE(at + 2);
    const ttl = message.readUInt32BE(at + 4);
    const size = message.readUInt16BE(at + 8);
    at += 10;
    const end = at + size;
    if (end > length) return -1;
    if (out === undefined) {
      // Glue addresses, or the OPT record: its extended RCODE (the TTL's top byte) and options
      // would change the answer. Other types' data would have to be read to know dns-packet
      // reads them (a record it cannot read loses the whole message).
      const skippable =
        type === TYPE_OPT
          ? size === 0 && ttl >>> 24 === 0
          : (type === TYPE_A && size === 4) || (type === TYPE_AAAA && size === 16);
      if (!skippable) return -1;
      at = end;
      continue;
    }
    if (klass !== CLASS_IN) return -1;
    let data: unknown;
    if (type === TYPE_A && size === 4) {
      data = formatV4(message.readUInt32BE(at));
    } else if (type === TYPE_AAAA && size === 16) {
      data = formatV6(
        message.readUInt32BE(at),
        message.readUInt32BE(at + 4),
        message.readUInt32BE(at + 8),
        message.readUInt32BE(at + 12),
      );
    } else if (type === TYPE_CNAME || type === TYPE_NS) {
      const target = readName(message, at, query);
      if (target === undefined || nameEnd !== end) return -1;
      data = target;
    } else if (type === TYPE_SOA) {
      const mname = readName(message, at, query);
      if (mname === undefined) return -1;
      const rname = readName(message, nameEnd, query);
      if (rname === undefined || nameEnd + 20 !== end) return -1;
      data = {
        mname,
        rname,
        serial: message.readUInt32BE(nameEnd),
        refresh: message.readUInt32BE(nameEnd + 4),
        retry: message.readUInt32BE(nameEnd + 8),
        expire: message.readUInt32BE(nameEnd + 12),
        minimum: message.readUInt32BE(nameEnd + 16),
      };
    } else {
      return -1;
    }
    out.push({
      name: name as string,
      type: TYPE_NAMES[type],
      ttl,
      class: 'IN',
      flush: false,
      data,
    } as Rr);
    at = end;
  }
  return at;
}

const TYPE_NAMES: Record<number, string> = {
  [TYPE_A]: 'A',
  [TYPE_NS]: 'NS',
  [TYPE_CNAME]: 'CNAME',
  [TYPE_SOA]: 'SOA',
  [TYPE_AAAA]: 'AAAA',
};

/** `message` decoded when it is a common answer to `query`; else `undefined`. */
export function decodeCommonAnswer(message: Buffer, query: Query): DecodedMessage | undefined {
  const length = message.length;
  if (length < 12 || !PLAIN_NAME.test(query.name)) return undefined;
  if (message.readUInt16BE(0) !== query.id) return undefined;
  const flags = message.readUInt16BE(2);
  // QR set, opcode QUERY, TC clear (RFC 1035 §4.1.1); RCODE NOERROR or NXDOMAIN.
  const rcode = flags & 0x000f;
  if ((flags & 0xfa00) !== 0x8000 || (rcode !== 0 && rcode !== 3)) return undefined;
  if (message.readUInt16BE(4) !== 1) return undefined;
  // The question as we sent it (our name is plain, so its wire form has no pointers).
  const wire = query.wire;
  const questionEnd = 12 + Buffer.byteLength(query.name) + 2 + 4;
  if (length < questionEnd || message.compare(wire, 12, questionEnd, 12, questionEnd) !== 0) {
    return undefined;
  }
  const answers: Rr[] = [];
  const authorities: Rr[] = [];
  let at = readRecords(message, questionEnd, message.readUInt16BE(6), query, answers);
  if (at >= 0) at = readRecords(message, at, message.readUInt16BE(8), query, authorities);
  if (at >= 0) at = readRecords(message, at, message.readUInt16BE(10), query, undefined);
  if (at !== length) return undefined;
  return {
    type: 'response',
    id: query.id,
    flags,
    flag_qr: true,
    opcode: 'QUERY',
    flag_aa: (flags & 0x0400) !== 0,
    flag_tc: false,
    flag_rd: (flags & 0x0100) !== 0,
    flag_ra: (flags & 0x0080) !== 0,
    flag_z: (flags & 0x0040) !== 0,
    flag_ad: (flags & 0x0020) !== 0,
    flag_cd: (flags & 0x0010) !== 0,
    rcode: rcode === 0 ? 'NOERROR' : 'NXDOMAIN',
    questions: [{ name: query.name, type: packetTypeName(query.type), class: 'IN' }],
    answers,
    authorities,
    additionals: [],
  } as DecodedMessage;
}
