/**
 * The record types each API family accepts (SPEC §4): the unversioned `/api/dns` takes eight,
 * `/api/v1/dns/:domain` adds SRV and PTR, and the types of issue 19 (see `DNS_TYPES_V1`).
 * @module
 */
import { InvalidInputError } from '../errors.js';
import type { RecordType } from '../net/dns-types.js';

/** Types of `GET /api/dns`, in SPEC §4 order. */
export const DNS_TYPES: readonly RecordType[] = [
  'A',
  'AAAA',
  'MX',
  'NS',
  'TXT',
  'CNAME',
  'CAA',
  'SOA',
];
/**
 * Types of `GET /api/v1/dns/:domain` and the CLI: SPEC §4's ten, then (issue 19) RFC 9460, DNSSEC
 * (RFC 4034, 5155, 7344), DANE (RFC 6698), SSHFP (RFC 4255) and NAPTR (RFC 3403).
 */
export const DNS_TYPES_V1: readonly RecordType[] = [
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'NS',
  'TXT',
  'SOA',
  'SRV',
  'CAA',
  'PTR',
  'HTTPS',
  'SVCB',
  'DS',
  'DNSKEY',
  'RRSIG',
  'NSEC',
  'NSEC3',
  'NSEC3PARAM',
  'TLSA',
  'SSHFP',
  'NAPTR',
  'CDS',
  'CDNSKEY',
];

/**
 * Parses a `type` parameter (case-insensitive, default `A`) against `allowed`; anything else is
 * an `InvalidInputError` that names the allowed types.
 */
export function parseRecordType(
  input: unknown,
  allowed: readonly RecordType[] = DNS_TYPES_V1,
): RecordType {
  if (input === undefined || input === null || input === '') return 'A';
  const text = typeof input === 'string' ? input.trim().toUpperCase() : '';
  const found = allowed.find((t) => t === text);
  if (!found) {
    throw new InvalidInputError(
      `Unsupported DNS record type ${JSON.stringify(String(input)).slice(0, 40)}: "type" must be one of ${allowed.join(', ')}`,
      'type',
    );
  }
  return found;
}
