/**
 * DNS messages on the wire (dns-packet): building a query and deciding whether a received
 * message is the answer to it.
 * @module
 */
import type * as packet from 'dns-packet';
import { lazyRequire } from '../lazy-require.js';
import type { RecordType } from './dns-types.js';
import { encodeQuery, FLAG_AD, FLAG_CD, FLAG_RD } from './query-encoder.js';
import { randomUint16 } from './random-ids.js';
import { packetTypeName, TYPE_CODES } from './resolver-records.js';

const dnsPacket = lazyRequire<typeof packet>('dns-packet');

/**
 * EDNS0 UDP payload size. 1232 bytes fits an IPv6 minimum MTU of 1280 minus the IPv6 and UDP
 * headers, the value agreed at DNS Flag Day 2020 (https://www.dnsflagday.net/2020/).
 */
export const EDNS_UDP_SIZE = 1232;

export interface Query {
  id: number;
  name: string;
  type: RecordType;
  wire: Buffer;
}

/**
 * A recursive query (RD set, RFC 1035 §4.1.1) with a fresh random id (RFC 5452 §9.2 asks for
 * an unpredictable id), optionally with an EDNS0 OPT record (RFC 6891 §6.1.2). The AD bit is
 * set so that a validating resolver reports whether it validated the answer (RFC 6840 §5.7).
 * DoH uses id 0 (RFC 8484 §4.1) so identical requests are cacheable.
 */
export function buildQuery(
  name: string,
  type: RecordType,
  options: { edns: boolean; id?: number; dnssecOk?: boolean; checkingDisabled?: boolean },
): Query {
  const id = options.id ?? randomUint16();
  const typeCode = TYPE_CODES[type];
  if (typeCode === undefined) throw new Error(`no type code for ${type}`);
  const wire = encodeQuery({
    id,
    name,
    typeCode,
    // CD (RFC 4035 §3.2.2) when the caller validates itself and wants the data even if bogus.
    flags: FLAG_RD | FLAG_AD | (options.checkingDisabled ? FLAG_CD : 0),
    // DO needs the OPT record to travel in (RFC 3225 §3).
    ednsUdpSize: options.edns || options.dnssecOk ? EDNS_UDP_SIZE : undefined,
    dnssecOk: options.dnssecOk === true,
  });
  return { id, name, type, wire };
}

/**
 * A resource record as dns-packet decodes it; `data` is the type's decoded form (an address,
 * a name, an object; a Buffer for types it leaves raw).
 */
export interface DecodedRecord {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  flush?: boolean;
  data?: unknown;
}

/**
 * A DNS message as dns-packet decodes it: the parts the resolver reads, with the rcode by name
 * (which @types/dns-packet leaves out). Declared here, not taken from @types/dns-packet, because
 * it reaches the public declarations (`ResolverOptions.udpPool`), and a consumer has only the
 * runtime dependencies: their compile must not need a types-only package (issue 44).
 */
export interface DecodedMessage {
  id?: number;
  type?: 'query' | 'response';
  flag_tc?: boolean;
  flag_ad?: boolean;
  rcode?: string;
  questions?: { name: string; type: string; class?: string }[];
  answers?: DecodedRecord[];
  authorities?: DecodedRecord[];
  /** Also the OPT record, with its `options` (RFC 6891 §6.1.2). */
  additionals?: DecodedRecord[];
}

/**
 * Decodes `message` and returns it only when it answers `query`: a response (QR set) with the
 * same id and the same single question (name compared case-insensitively, RFC 4343; type and
 * class IN). Anything else is a late, stray or forged packet and is ignored (RFC 5452 §3).
 */
export function matchResponse(message: Uint8Array, query: Query): DecodedMessage | undefined {
  // A Buffer is decoded in place; other views are wrapped, never copied.
  const bytes = Buffer.isBuffer(message)
    ? message
    : Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let decoded: DecodedMessage;
  try {
    decoded = dnsPacket().decode(bytes) as DecodedMessage;
  } catch {
    return undefined;
  }
  if (decoded.type !== 'response' || decoded.id !== query.id) return undefined;
  const questions = decoded.questions ?? [];
  const question = questions[0];
  if (questions.length !== 1 || !question) return undefined;
  if (normaliseName(question.name) !== normaliseName(query.name)) return undefined;
  if (question.type !== packetTypeName(query.type)) return undefined;
  if ((question.class ?? 'IN') !== 'IN') return undefined;
  return decoded;
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
