/**
 * The record types each API family accepts (SPEC §4): the unversioned `/api/dns` takes eight,
 * `/api/v1/dns/:domain` adds SRV and PTR.
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
/** Types of `GET /api/v1/dns/:domain`, in SPEC §4 order. */
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
