/**
 * The Tor Project's bulk exit list (https://check.torproject.org/torbulkexitlist): one exit
 * address per line. Fetching and refreshing it is the caller's job (the HTTP service does it
 * every 30 minutes); core only parses it and answers membership.
 * @module
 */
import { createAddressParts, parseAddressInto } from './address.js';

export interface TorExitList {
  /** True when `ip` (canonical text, as `lookupIp` reports it) is a Tor exit. */
  has(ip: string): boolean;
  readonly size: number;
  /** When the list was fetched (ISO timestamp), '' when unknown. */
  readonly fetched_at: string;
  /** Lines that were not an IP address (a sign of a wrong URL when nothing else parsed). */
  readonly invalid_lines: number;
}

/** Parses the list text; blank lines and `#` comments are skipped. */
export function parseTorExitList(text: string, fetchedAt = ''): TorExitList {
  const parts = createAddressParts();
  const addresses = new Set<string>();
  let invalid = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (parseAddressInto(line, parts)) addresses.add(parts.text);
    else invalid++;
  }
  return {
    has: (ip) => addresses.has(ip),
    size: addresses.size,
    fetched_at: fetchedAt,
    invalid_lines: invalid,
  };
}
