/**
 * `searchAsn`: an IP → its origin AS and the announced range holding it; `AS15169` → holder
 * and announced prefixes; a name → matching ASes, best match first.
 * @module
 */
import type { z } from 'zod';
import { InvalidInputError, InvalidIpError, NotFoundError } from '../errors.js';
import {
  bigIntToV6,
  createAddressParts,
  formatV4,
  parseAddressInto,
  wordsToBigInt,
} from '../ip/address.js';
import type { AsnIndex } from '../ip/asn/asn-index.js';
import { getDefaultIpDatasets, type IpDatasets } from '../ip/datasets.js';
import type {
  asnIpSchema,
  asnNameMatchSchema,
  asnNameSchema,
  asnNumberSchema,
} from '../ip/schema.js';
import type { IpPrivacy } from '../ip/types.js';
import {
  type Cidr,
  cidrHasV4,
  cidrHasV6,
  parseCidr,
  v4RangeCidrCount,
  v4RangeToCidrs,
  v6RangeCidrCount,
  v6RangeToCidrs,
} from '../net/cidr.js';
import { embeddedV4 } from '../net/ranges.js';
import { throwIfAborted } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { isAsnLike, MAX_ASN, parseAsn } from './as-number.js';

export interface SearchAsnOptions extends BaseOptions {
  /** Most name matches returned. @default 50 */
  limit?: number;
  /** @default the embedded data (`getDefaultIpDatasets()`) */
  datasets?: IpDatasets;
}

// `privacy` is the datasets' shared, frozen classification (readonly `signals`), not a copy.

/** `q` is an IP address: its origin AS and the announced range holding it. */
export type AsnIpResult = Omit<z.output<typeof asnIpSchema>, 'privacy'> & {
  privacy: Readonly<IpPrivacy> | null;
};
/** `q` is an AS number: its holder, announced prefixes and privacy classification. */
export type AsnNumberResult = Omit<z.output<typeof asnNumberSchema>, 'privacy'> & {
  privacy: Readonly<IpPrivacy>;
};
/** One AS whose holder name matches `q`. */
export type AsnNameMatch = z.output<typeof asnNameMatchSchema>;
/** `q` is a name: the matching ASes, best first (`total_matches` before the limit). */
export type AsnNameResult = z.output<typeof asnNameSchema>;
/** `GET /api/asn` data: one of three shapes, told apart by `type`. */
export type AsnSearchResult = AsnIpResult | AsnNumberResult | AsnNameResult;

const QUERY_FORM =
  'an IP address, an AS number such as AS15169, or an organisation name (2 to 200 characters)';

/** Searches the ASN data for an IP address, an AS number (`AS15169`, `15169`) or a name. */
export async function searchAsn(
  q: string,
  options: SearchAsnOptions = {},
): Promise<AsnSearchResult> {
  const query = typeof q === 'string' ? q.trim() : '';
  if (query === '') throw new InvalidInputError(`Missing "q": ${QUERY_FORM}`, 'q');
  throwIfAborted(options.signal);
  const datasets = options.datasets ?? (await getDefaultIpDatasets());
  if (parseAddressInto(query, createAddressParts())) return byIp(query, datasets);
  // Something shaped like an address but not one ("1.2.3.999", "2001:db8::g") is a typo of an
  // IP, not an organisation name: answer with the SPEC §7 message.
  if (/^\d+(?:\.\d+)+$/.test(query) || /^\[?[0-9a-z.%]*:[0-9a-z.%]*:[0-9a-z:.%\]]*$/i.test(query)) {
    throw new InvalidIpError('q');
  }
  const asn = parseAsn(query);
  if (asn !== undefined) return byNumber(query, asn, datasets);
  if (isAsnLike(query)) {
    throw new InvalidInputError(`"q": AS numbers go up to ${MAX_ASN} (RFC 6793)`, 'q');
  }
  if (query.length < 2 || query.length > 200) {
    throw new InvalidInputError(`"q" must be ${QUERY_FORM}`, 'q');
  }
  return byName(query, options.limit ?? 50, datasets.asn);
}

function byIp(query: string, datasets: IpDatasets): AsnIpResult {
  const info = datasets.lookup(query);
  const empty: AsnIpResult = {
    query,
    type: 'ip',
    ip: info.ip,
    bogon: info.bogon,
    bogon_reason: info.bogon_reason,
    asn: null,
    name: '',
    org: '',
    isp: '',
    range: null,
    prefix: '',
    privacy: null,
  };
  if (info.bogon) return empty;
  const parts = createAddressParts();
  parseAddressInto(info.ip, parts);
  const index = datasets.asn;
  let v4 = parts.version === 4 ? parts.v4 : embeddedV4(parts.w0, parts.w1, parts.w2, parts.w3);
  let range: AsnIpResult['range'] = null;
  let prefix = '';
  let entry = -1;
  if (v4 >= 0) {
    v4 >>>= 0;
    const row = index.findV4(v4);
    if (row >= 0) {
      entry = index.entryOfV4Row(row);
      const first = index.data.v4Start[row] as number;
      const last = index.data.v4End[row] as number;
      const cidrs = v4RangeToCidrs(first, last);
      range = { first: formatV4(first), last: formatV4(last), cidrs };
      prefix = cidrs.find((c) => cidrHasV4(parseCidr(c) as Cidr, v4)) ?? '';
    }
  } else {
    const row = index.findV6(parts.w0, parts.w1, parts.w2, parts.w3);
    if (row >= 0) {
      entry = index.entryOfV6Row(row);
      const [first, last] = v6RowBounds(index, row);
      const cidrs = v6RangeToCidrs(first, last);
      range = { first: bigIntToV6(first), last: bigIntToV6(last), cidrs };
      const { w0, w1, w2, w3 } = parts;
      prefix = cidrs.find((c) => cidrHasV6(parseCidr(c) as Cidr, w0, w1, w2, w3)) ?? '';
    }
  }
  if (entry < 0) {
    throw new NotFoundError(`No autonomous system announces ${info.ip} in the ASN data`);
  }
  const network = datasets.networkOf(entry);
  return {
    ...empty,
    asn: network.asn,
    name: network.as_name,
    org: network.org,
    isp: network.isp,
    range,
    prefix,
    privacy: info.privacy,
  };
}

function byNumber(query: string, asn: number, datasets: IpDatasets): AsnNumberResult {
  const index = datasets.asn;
  const d = index.data;
  const entries = new Set<number>();
  for (let e = 0; e < index.entries; e++) if (d.entryAsn[e] === asn) entries.add(e);
  if (entries.size === 0) {
    throw new NotFoundError(`AS${asn} not found: it announces no prefix in the ASN data`);
  }
  const ipv4: string[] = [];
  const ipv6: string[] = [];
  const rowsByEntry = new Map<number, number>();
  let addresses = 0;
  for (let row = 0; row < index.v4Rows; row++) {
    const entry = d.v4Entry[row] as number;
    if (!entries.has(entry)) continue;
    rowsByEntry.set(entry, (rowsByEntry.get(entry) ?? 0) + 1);
    const first = d.v4Start[row] as number;
    const last = d.v4End[row] as number;
    addresses += last - first + 1;
    ipv4.push(...v4RangeToCidrs(first, last));
  }
  for (let row = 0; row < index.v6Rows; row++) {
    const entry = d.v6Entry[row] as number;
    if (!entries.has(entry)) continue;
    rowsByEntry.set(entry, (rowsByEntry.get(entry) ?? 0) + 1);
    const [first, last] = v6RowBounds(index, row);
    ipv6.push(...v6RangeToCidrs(first, last));
  }
  // The holder name used by most of the AS's ranges.
  let best = [...entries][0] as number;
  for (const [entry, rows] of rowsByEntry) {
    if (rows > (rowsByEntry.get(best) ?? 0)) best = entry;
  }
  return {
    query,
    type: 'asn',
    asn,
    name: index.nameOf(best),
    ipv4_prefix_count: ipv4.length,
    ipv6_prefix_count: ipv6.length,
    ipv4_address_count: addresses,
    prefixes: { ipv4, ipv6 },
    privacy: datasets.privacyOf(best),
  };
}

interface NameIndexEntry {
  asn: number;
  name: string;
  /** Every name of the AS, lower-cased with blanks collapsed. */
  keys: string[];
  v4Prefixes: number;
  v6Prefixes: number;
  v4Addresses: number;
}

const nameIndexes = new WeakMap<AsnIndex, NameIndexEntry[]>();

/** One entry per AS with its names and sizes; built on the first name search (~0.3 s). */
function nameIndex(index: AsnIndex): NameIndexEntry[] {
  let built = nameIndexes.get(index);
  if (built) return built;
  const d = index.data;
  const byAsn = new Map<number, NameIndexEntry & { nameRows: Map<string, number> }>();
  const entryOf = (entry: number) => {
    const asn = d.entryAsn[entry] as number;
    let item = byAsn.get(asn);
    if (!item) {
      item = {
        asn,
        name: '',
        keys: [],
        v4Prefixes: 0,
        v6Prefixes: 0,
        v4Addresses: 0,
        nameRows: new Map(),
      };
      byAsn.set(asn, item);
    }
    const name = index.nameOf(entry);
    item.nameRows.set(name, (item.nameRows.get(name) ?? 0) + 1);
    return item;
  };
  for (let row = 0; row < index.v4Rows; row++) {
    const item = entryOf(d.v4Entry[row] as number);
    const first = d.v4Start[row] as number;
    const last = d.v4End[row] as number;
    item.v4Prefixes += v4RangeCidrCount(first, last);
    item.v4Addresses += last - first + 1;
  }
  for (let row = 0; row < index.v6Rows; row++) {
    const item = entryOf(d.v6Entry[row] as number);
    const [first, last] = v6RowBounds(index, row);
    item.v6Prefixes += v6RangeCidrCount(first, last);
  }
  built = [];
  for (const item of byAsn.values()) {
    let bestRows = -1;
    for (const [name, rows] of item.nameRows) {
      if (rows > bestRows) {
        item.name = name;
        bestRows = rows;
      }
      item.keys.push(normaliseName(name));
    }
    const { nameRows: _, ...entry } = item;
    built.push(entry);
  }
  nameIndexes.set(index, built);
  return built;
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, ' ').trim();
}

const RANK = { exact: 0, prefix: 1, word: 2 } as const;

/**
 * Case-insensitive: `exact`, then `prefix`, then `word` (the query starts a word inside the
 * name); within a class, more IPv4 addresses first, then lower AS numbers.
 */
function byName(query: string, limit: number, index: AsnIndex): AsnNameResult {
  const q = normaliseName(query);
  const matches: { entry: NameIndexEntry; match: keyof typeof RANK }[] = [];
  for (const entry of nameIndex(index)) {
    let match: keyof typeof RANK | undefined;
    for (const key of entry.keys) {
      const found =
        key === q ? 'exact' : key.startsWith(q) ? 'prefix' : wordMatch(key, q) ? 'word' : undefined;
      if (found && (match === undefined || RANK[found] < RANK[match])) match = found;
    }
    if (match) matches.push({ entry, match });
  }
  matches.sort(
    (a, b) =>
      RANK[a.match] - RANK[b.match] ||
      b.entry.v4Addresses - a.entry.v4Addresses ||
      a.entry.asn - b.entry.asn,
  );
  return {
    query,
    type: 'name',
    total_matches: matches.length,
    results: matches.slice(0, Math.max(0, limit)).map(({ entry, match }) => ({
      asn: entry.asn,
      name: entry.name,
      match,
      ipv4_prefix_count: entry.v4Prefixes,
      ipv6_prefix_count: entry.v6Prefixes,
      ipv4_address_count: entry.v4Addresses,
    })),
  };
}

function wordMatch(key: string, q: string): boolean {
  for (let at = key.indexOf(q, 1); at > 0; at = key.indexOf(q, at + 1)) {
    if (!/[\p{L}\p{N}]/u.test(key.charAt(at - 1))) return true;
  }
  return false;
}

function v6RowBounds(index: AsnIndex, row: number): [bigint, bigint] {
  const s = index.data.v6Start;
  const e = index.data.v6End;
  const k = row * 4;
  return [
    wordsToBigInt(s[k] as number, s[k + 1] as number, s[k + 2] as number, s[k + 3] as number),
    wordsToBigInt(e[k] as number, e[k + 1] as number, e[k + 2] as number, e[k + 3] as number),
  ];
}
