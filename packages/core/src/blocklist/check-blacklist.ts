/**
 * `checkBlacklist`: one IP against the DNSBLs, all lists at once under one deadline, with the
 * listing rule of CONTRACT §6, the TXT reason of listed entries, an RFC 5782 §5 control query
 * per list, and the whole result cached per IP for 10 minutes.
 * @module
 */
import type { z } from 'zod';
import type { blacklistDataSchema, blacklistListResultSchema } from '../dns/schema.js';
import {
  AbortedError,
  InvalidInputError,
  isNetdiagError,
  TimeoutError,
  UpstreamError,
} from '../errors.js';
import { type Cache, createMemoryCache, createSingleFlight } from '../net/cache.js';
import type { DnsResolver, DnsResponse } from '../net/dns-types.js';
import { requireIp } from '../net/ip.js';
import { getDefaultResolver } from '../net/resolver.js';
import type { BaseOptions } from '../types.js';
import { classifyAnswer } from './listing.js';
import { controlAddress, dnsblQueryName } from './query-name.js';
import { DNSBL_ZONES, type DnsblZone, SPAMHAUS_ERROR_CODES } from './zones.js';

/** One list's outcome: its raw return codes, TXT reason and what each code means. */
export type BlacklistListResult = z.output<typeof blacklistListResultSchema>;

/** Per-list status values (CONTRACT §6). */
export type BlacklistStatus = BlacklistListResult['status'];

/**
 * `GET /api/blacklist` data. `clean` says nothing about the lists counted in
 * `unavailable_count`; `total_checked` is always at least one (else the check fails).
 */
export type BlacklistResult = z.output<typeof blacklistDataSchema>;

export interface CheckBlacklistOptions extends BaseOptions {
  /** DNS resolver. @default the library's shared resolver (system servers) */
  resolver?: DnsResolver;
  /** Result cache, keyed per IP. @default a shared in-memory cache */
  cache?: Cache | false;
  /** How long a result is cached. @default 600000 (10 minutes) */
  cacheTtlMs?: number;
  /** Lists to query. @default DNSBL_ZONES */
  zones?: readonly DnsblZone[];
  /**
   * Ask each list for the RFC 5782 §5 control address too and report a list that claims it as
   * `error` (a dead or wildcarded zone), instead of a listing. @default true
   */
  verifyZones?: boolean;
  /**
   * One deadline for all lists together; lists that have not answered by then are `timeout`.
   * @default 5000
   */
  timeout?: number | false;
}

/**
 * Default cache and in-flight table per resolver, so that two resolvers with different servers
 * (two apps in one process, a test fixture) never share answers.
 */
const defaults = new WeakMap<
  DnsResolver,
  { cache: Cache; flight: ReturnType<typeof createSingleFlight> }
>();
function defaultsFor(resolver: DnsResolver) {
  let entry = defaults.get(resolver);
  if (!entry) {
    entry = { cache: createMemoryCache({ max: 5_000 }), flight: createSingleFlight() };
    defaults.set(resolver, entry);
  }
  return entry;
}

/**
 * Checks `ip` against every list concurrently (docs/dns.md, "Partial answers"). When only some
 * lists answer, the verdict covers those (`clean: true` never means "no list lists it"); the
 * others are `error`/`timeout` entries counted in `unavailable_count`, and the answer is not
 * cached. When no list answers it rejects instead of claiming CLEAN: `TimeoutError` (504) if all
 * timed out, else `UpstreamError` (502); `InvalidInputError` when no list supports the IPv6
 * address. Also rejects with `InvalidIpError` and `AbortedError`.
 */
export async function checkBlacklist(
  address: string,
  options: CheckBlacklistOptions = {},
): Promise<BlacklistResult> {
  const ip = requireIp(address);
  const zones = options.zones ?? DNSBL_ZONES;
  const resolver = options.resolver ?? getDefaultResolver();
  const shared = defaultsFor(resolver);
  const cache = options.cache === false ? undefined : (options.cache ?? shared.cache);
  const key = `dnsbl:${zones.map((z) => z.zone).join(',')}:${ip.address}`;
  if (cache) {
    const hit = await cache.get<BlacklistResult>(key);
    if (hit) return hit;
  }
  const run = async () => {
    const { result, complete } = await checkAll(ip.address, ip.version, zones, resolver, options);
    // A timeout or a network failure is transient: only complete answers are kept.
    if (cache && complete) await cache.set(key, result, options.cacheTtlMs ?? 600_000);
    return result;
  };
  // Collapsing is only safe when nobody can cancel the shared work early.
  return options.signal ? run() : shared.flight(key, run);
}

interface ListOutcome {
  result: BlacklistListResult;
  /** False when the outcome may change on retry (timeout, network error). */
  definitive: boolean;
  /** For a `timeout`: how long the list had, when known. */
  timeoutMs?: number;
}

/**
 * Every list at once under one deadline. The queries carry no signal of their own: a list still
 * unanswered at the deadline is `timeout` while its query finishes in the background under the
 * resolver's own budget. The caller's signal ends the whole check at once.
 */
async function checkAll(
  address: string,
  family: 4 | 6,
  zones: readonly DnsblZone[],
  resolver: DnsResolver,
  options: CheckBlacklistOptions,
): Promise<{ result: BlacklistResult; complete: boolean }> {
  const ms = options.timeout === undefined ? 5_000 : options.timeout;
  const { signal } = options;
  if (signal?.aborted) throw new AbortedError(signal.reason);
  const outcomes = new Array<ListOutcome | undefined>(zones.length);
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  // Resolves at the deadline: what the lists, and a listed zone's TXT and control queries, race.
  const deadline = new Promise<void>((resolve) => {
    if (ms === false) return;
    timer = setTimeout(() => {
      expired = true;
      resolve();
    }, ms);
  });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  /** One list; the A query, then for a listing the control query and the TXT reason. */
  const checkOne = async (zone: DnsblZone): Promise<ListOutcome> => {
    if (family === 6 && !zone.ipv6) {
      return outcome(zone, 'skipped', ['the list does not support IPv6'], true);
    }
    const name = dnsblQueryName(address, zone.zone);
    let answer: DnsResponse;
    try {
      answer = await resolver.query(name, 'A');
    } catch (error) {
      return failure(zone, error);
    }
    if (answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN') {
      return outcome(zone, 'error', [`the list's DNS answered ${answer.rcode}`], false);
    }
    const codes = aRecords(answer);
    const verdict = answer.rcode === 'NXDOMAIN' ? 'not_listed' : classifyAnswer(codes);
    const meaning = codes.map((code) => meaningOf(zone, code, verdict));
    if (verdict !== 'listed') return outcome(zone, verdict, meaning, true, { response: codes });
    // Only a listing needs a second round trip: the control query (RFC 5782 §5) and the TXT
    // reason, together, each cut off by the check's deadline (a reason that fails is left empty;
    // a control that fails proves nothing). A clean address costs one query per list.
    const beforeDeadline = <T>(work: Promise<T>, fallback: T): Promise<T> =>
      expired
        ? Promise.resolve(fallback)
        : Promise.race([work.catch(() => fallback), deadline.then(() => fallback)]);
    const control = dnsblQueryName(controlAddress(family), zone.zone);
    const [broken, reason] = await Promise.all([
      (options.verifyZones ?? true)
        ? beforeDeadline(
            resolver
              .query(control, 'A')
              .then((r) => r.rcode === 'NOERROR' && classifyAnswer(aRecords(r)) === 'listed'),
            false,
          )
        : false,
      beforeDeadline(
        resolver.query(name, 'TXT').then((txt) =>
          txt.answers
            .filter((r) => r.type === 'TXT')
            .map((r) => (r.value as string[]).join(''))
            .join('; '),
        ),
        '',
      ),
    ]);
    if (broken) {
      const why = `the zone also lists ${controlAddress(family)}, which RFC 5782 §5 forbids: it is dead or wildcarded`;
      return outcome(zone, 'error', [why], true, { response: codes });
    }
    return outcome(zone, 'listed', meaning, true, { response: codes, reason });
  };
  const all = Promise.all(
    zones.map(async (zone, i) => {
      const outcome = await checkOne(zone);
      // An answer after the deadline is not taken: that list is `timeout`.
      if (!expired) outcomes[i] = outcome;
    }),
  );
  try {
    await Promise.race([all, deadline, aborted]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  // Array.from visits the holes (lists still unanswered) that map would skip.
  const filled = Array.from(
    outcomes,
    (o, i) =>
      o ??
      outcome(zones[i] as DnsblZone, 'timeout', ['no answer before the deadline'], false, {
        timeoutMs: ms === false ? undefined : ms,
      }),
  );
  return summarise(address, zones.length, filled, ms);
}

/** One list's outcome; `definitive` is false when a retry may tell otherwise. */
function outcome(
  zone: DnsblZone,
  status: BlacklistStatus,
  meaning: string[],
  definitive: boolean,
  found: { response?: string[]; reason?: string; timeoutMs?: number | undefined } = {},
): ListOutcome {
  const { response = [], reason = '', timeoutMs } = found;
  const listed = status === 'listed';
  return {
    result: { name: zone.name, zone: zone.zone, listed, response, reason, status, meaning },
    definitive,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

function summarise(
  address: string,
  total: number,
  outcomes: ListOutcome[],
  ms: number | false,
): { result: BlacklistResult; complete: boolean } {
  const results = outcomes.map((o) => o.result);
  const count = (status: BlacklistStatus) => results.filter((r) => r.status === status).length;
  const listed = count('listed');
  if (listed + count('not_listed') === 0) throw noListAnswered(address, outcomes, ms);
  return {
    result: {
      ip: address,
      total_lists: total,
      total_checked: listed + count('not_listed'),
      unavailable_count: count('error') + count('timeout'),
      skipped_count: count('skipped'),
      listed_count: listed,
      clean: listed === 0,
      status: listed === 0 ? 'CLEAN' : 'LISTED',
      results,
    },
    complete: outcomes.every((o) => o.definitive),
  };
}

function aRecords(answer: DnsResponse): string[] {
  return answer.answers.filter((r) => r.type === 'A').map((r) => r.data);
}

/**
 * The error for a check in which no list gave a usable answer: a verdict based on no list must
 * not claim CLEAN (docs/dns.md, "Partial answers").
 */
function noListAnswered(
  address: string,
  outcomes: readonly ListOutcome[],
  deadlineMs: number | false,
): Error {
  const asked = outcomes.filter((o) => o.result.status !== 'skipped');
  if (asked.length === 0) {
    return new InvalidInputError(
      `${address} cannot be checked: none of the ${outcomes.length} configured DNSBLs supports IPv6`,
      'ip',
    );
  }
  if (asked.every((o) => o.result.status === 'timeout')) {
    const known = asked.map((o) => o.timeoutMs).filter((t): t is number => t !== undefined);
    const ms = deadlineMs === false ? Math.max(0, ...known) : deadlineMs;
    return new DnsblTimeoutError(
      ms,
      `none of the ${asked.length} DNSBLs answered within ${ms} ms (${asked.map((o) => o.result.name).join(', ')}); no blocklist verdict is possible`,
    );
  }
  const reasons = asked.map(
    (o) => `${o.result.name}: ${o.result.status} (${o.result.meaning[0] ?? 'no answer'})`,
  );
  return new UpstreamError(
    'dnsbl',
    `none of the ${asked.length} DNSBLs gave a usable answer, so no blocklist verdict is possible: ${reasons.join('; ')}`,
  );
}

/** A `TimeoutError` (code UPSTREAM_TIMEOUT, upstream `dnsbl`) whose message names the lists. */
class DnsblTimeoutError extends TimeoutError {
  constructor(ms: number, detail: string) {
    super('dnsbl', ms);
    this.message = `[netdiag] [dnsbl] ${detail}`;
  }
}

function meaningOf(zone: DnsblZone, code: string, verdict: string): string {
  const known = zone.codes[code] ?? SPAMHAUS_ERROR_CODES[code];
  if (known) return known;
  if (verdict === 'listed') return zone.defaultMeaning;
  if (code === '127.0.0.1') return 'error: 127.0.0.1 is never a listing (RFC 5782 §5)';
  if (code.startsWith('127.')) return 'error: not a listing code';
  return 'error: answer outside 127.0.0.0/8 (a resolver rewriting NXDOMAIN?)';
}

function failure(zone: DnsblZone, error: unknown): ListOutcome {
  if (isNetdiagError(error, 'UPSTREAM_TIMEOUT')) {
    const ms = (error as { timeoutMs?: unknown }).timeoutMs;
    return outcome(zone, 'timeout', ['no answer before the deadline'], false, {
      timeoutMs: typeof ms === 'number' ? ms : undefined,
    });
  }
  if (isNetdiagError(error, 'ABORTED')) throw error;
  // The resolver's message names our own DNS server; the API says only what failed.
  return outcome(zone, 'error', ['the list could not be queried (network error)'], false);
}
