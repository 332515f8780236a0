/**
 * DNS messages on the wire (dns-packet): building a query and deciding whether a received
 * message is the answer to it.
 * @module
 */
import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import type { RecordType } from './dns-types.js';

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
  options: { edns: boolean; id?: number },
): Query {
  const id = options.id ?? randomInt(0, 0x10000);
  const wire = packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED | packet.AUTHENTIC_DATA,
    questions: [{ type, name, class: 'IN' }],
    additionals: options.edns
      ? [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: EDNS_UDP_SIZE,
            extendedRcode: 0,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          },
        ]
      : [],
  });
  return { id, name, type, wire };
}

/** dns-packet also decodes the rcode by name (its typings leave it out). */
export type DecodedMessage = packet.DecodedPacket & { rcode?: string };

/**
 * Decodes `message` and returns it only when it answers `query`: a response (QR set) with the
 * same id and the same single question (name compared case-insensitively, RFC 4343; type and
 * class IN). Anything else is a late, stray or forged packet and is ignored (RFC 5452 §3).
 */
export function matchResponse(message: Uint8Array, query: Query): DecodedMessage | undefined {
  let decoded: DecodedMessage;
  try {
    decoded = packet.decode(Buffer.from(message)) as DecodedMessage;
  } catch {
    return undefined;
  }
  if (decoded.type !== 'response' || decoded.id !== query.id) return undefined;
  const questions = decoded.questions ?? [];
  const question = questions[0];
  if (questions.length !== 1 || !question) return undefined;
  if (normaliseName(question.name) !== normaliseName(query.name)) return undefined;
  if (question.type !== query.type) return undefined;
  if ((question.class ?? 'IN') !== 'IN') return undefined;
  return decoded;
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
