/**
 * `bulkLookup`: many addresses at once, with per-entry errors (CONTRACT §6 bulk rules).
 * @module
 */
import type { z } from 'zod';
import { INVALID_IP_MESSAGE, InvalidInputError, InvalidIpError } from '../errors.js';
import { throwIfAborted } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { getDefaultIpDatasets, type IpDatasets } from './datasets.js';
import type { bulkEntryErrorSchema } from './schema.js';
import type { IpPlace } from './types.js';

/** Longest echo of a bad entry in `errors[].input`. */
const MAX_INPUT_ECHO = 200;

/**
 * A non-string entry as its JSON text, bounded: a library caller may pass anything, including
 * structures deep enough to overflow `JSON.stringify`'s stack (a RangeError) or cyclic ones.
 */
function describeEntry(entry: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(entry) ?? String(entry);
  } catch {
    text = Array.isArray(entry) ? '[array]' : typeof entry === 'object' ? '[object]' : typeof entry;
  }
  return text.length > MAX_INPUT_ECHO ? `${text.slice(0, MAX_INPUT_ECHO)}…` : text;
}

/** SPEC §8: at most 50 IPs per `POST /api/bulk` request. */
export const BULK_MAX_IPS = 50;

export interface BulkLookupOptions extends BaseOptions {
  /** Most entries accepted (`Infinity` for none). @default 50 (SPEC §8) */
  maxIps?: number;
  /** @default the embedded data (`getDefaultIpDatasets()`) */
  datasets?: IpDatasets;
  /**
   * Addresses answered by earlier calls, for a caller that splits one list into batches
   * (`netdiag bulk`): they are skipped as duplicates, and this call's addresses are added.
   * @default a new set (duplicates dropped within this call only)
   */
  seen?: Set<string>;
}

/** An entry that is not an IP address (non-strings as their JSON text), with the reason. */
export type BulkEntryError = z.output<typeof bulkEntryErrorSchema>;

/** The records of the valid entries, not yet the answer's items (`bulkAnswerItem` picks). */
export interface BulkLookupResult {
  /**
   * Valid distinct addresses in order of first appearance (duplicates after normalising
   * dropped), located without privacy signals: a bulk item does not carry them.
   */
  results: IpPlace[];
  errors: BulkEntryError[];
}

/**
 * Looks up every valid distinct entry of `ips`; anything that is not an IP string is reported
 * in `errors`. Throws `InvalidInputError` for an empty list or one
 * over `maxIps`, and `InvalidIpError` when no entry at all is a valid address.
 */
export async function bulkLookup(
  ips: readonly unknown[],
  options: BulkLookupOptions = {},
): Promise<BulkLookupResult> {
  const max = options.maxIps ?? BULK_MAX_IPS;
  if (!Array.isArray(ips)) {
    throw new InvalidInputError('"ips" must be an array of IPv4 or IPv6 address strings', 'ips');
  }
  if (ips.length === 0) {
    throw new InvalidInputError(
      `"ips" is empty: send 1 to ${max === Number.POSITIVE_INFINITY ? 'any number of' : max} IP addresses`,
      'ips',
    );
  }
  if (ips.length > max) {
    throw new InvalidInputError(
      `"ips" has ${ips.length} entries: at most ${max} IP addresses per request`,
      'ips',
    );
  }
  throwIfAborted(options.signal);
  const datasets = options.datasets ?? (await getDefaultIpDatasets());
  const results: IpPlace[] = [];
  const errors: BulkEntryError[] = [];
  const seen = options.seen ?? new Set<string>();
  let valid = 0;
  for (const entry of ips) {
    if (typeof entry !== 'string') {
      errors.push({
        input: describeEntry(entry),
        error: 'Each entry must be a string holding an IPv4 or IPv6 address',
      });
      continue;
    }
    let info: IpPlace;
    try {
      info = datasets.locate(entry);
    } catch {
      errors.push({ input: entry, error: INVALID_IP_MESSAGE });
      continue;
    }
    valid++;
    if (seen.has(info.ip)) continue;
    seen.add(info.ip);
    results.push(info);
  }
  if (valid === 0) throw new InvalidIpError('ips');
  return { results, errors };
}
