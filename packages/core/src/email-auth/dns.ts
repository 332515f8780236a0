/**
 * Thin helpers over the `DnsResolver` seam for the email-auth sections: one answer kind per
 * outcome (records, NXDOMAIN, NODATA, failure) so that every section can word its findings, and
 * TXT strings joined the way RFC 7208 §3.3 and RFC 7489 §6.6.3 join them.
 * @module
 */
import { getDefaultResolver } from '../dns/index.js';
import { isNetdiagError, UpstreamError } from '../errors.js';
import type { DnsRecord, DnsResolver, RecordType } from '../net/dns-types.js';
import { withTimeout } from '../net/signal.js';
import { failureInWords } from '../net/socket-failure.js';
import { EMAIL_AUTH_DEFAULT_TIMEOUT_MS, type EmailAuthSectionOptions } from './types.js';

export type LookupResult =
  | {
      ok: true;
      /** NOERROR with data, NOERROR without (NODATA) or NXDOMAIN. */
      rcode: 'NOERROR' | 'NXDOMAIN';
      /** Answers of the asked type (a CNAME chain is followed by the resolver). */
      records: DnsRecord[];
      /** Every answer, CNAMEs included. */
      answers: DnsRecord[];
    }
  | {
      ok: false;
      /** `SERVFAIL`, `REFUSED`, … or `TIMEOUT` / `ERROR` when no server answered. */
      rcode: string;
      error: Error;
    };

export interface LookupOptions {
  signal?: AbortSignal;
  /** Per-query budget in ms (the resolver's own default when absent). */
  timeout?: number;
}

export function resolverOf(resolver: DnsResolver | undefined): DnsResolver {
  return resolver ?? getDefaultResolver();
}

/**
 * A section's options as its body sees them: the resolver to use, the budget's signal and the
 * options of each DNS query (that signal and the per-query `dnsTimeout`).
 */
export type SectionRun<O> = O & {
  resolver: DnsResolver;
  signal: AbortSignal;
  lookup: LookupOptions;
};

/**
 * Runs a section analyser within its `timeout` (default 20 s; `TimeoutError('email-auth')`)
 * and the caller's `signal`, with the shared resolver when none is given.
 */
export function runSection<O extends EmailAuthSectionOptions, T>(
  options: O,
  section: (run: SectionRun<O>) => Promise<T>,
): Promise<T> {
  const resolver = resolverOf(options.resolver);
  return withTimeout(
    options,
    'email-auth',
    (signal) =>
      section({
        ...options,
        resolver,
        signal,
        lookup: {
          signal,
          ...(options.dnsTimeout !== undefined ? { timeout: options.dnsTimeout } : {}),
        },
      }),
    EMAIL_AUTH_DEFAULT_TIMEOUT_MS,
  );
}

/** One query; never throws for DNS failures (only for a caller abort). */
export async function tryLookup(
  resolver: DnsResolver,
  name: string,
  type: RecordType,
  options: LookupOptions = {},
): Promise<LookupResult> {
  try {
    const response = await resolver.query(name, type, options);
    const rcode = response.rcode;
    if (rcode === 'NOERROR' || rcode === 'NXDOMAIN') {
      return {
        ok: true,
        rcode: rcode as 'NOERROR' | 'NXDOMAIN',
        records: response.answers.filter((r) => r.type === type),
        answers: response.answers,
      };
    }
    return {
      ok: false,
      rcode: response.rcode,
      error: new UpstreamError('dns', `${response.rcode} for ${name} ${type}`),
    };
  } catch (error) {
    if (isNetdiagError(error, 'ABORTED')) throw error;
    const rcode = isNetdiagError(error, 'UPSTREAM_TIMEOUT') ? 'TIMEOUT' : 'ERROR';
    return { ok: false, rcode, error: error as Error };
  }
}

/** Like {@link tryLookup} but a DNS failure throws (the route answers 502 / 504). */
export async function mustLookup(
  resolver: DnsResolver,
  name: string,
  type: RecordType,
  options: LookupOptions = {},
): Promise<Extract<LookupResult, { ok: true }>> {
  const result = await tryLookup(resolver, name, type, options);
  if (result.ok) return result;
  if (isNetdiagError(result.error)) throw result.error;
  throw new UpstreamError(
    'dns',
    `${type} lookup of ${name} failed: ${failureInWords(result.error)}`,
    result.error,
  );
}

/**
 * The text of each TXT record: its character-strings concatenated without separators
 * (RFC 7208 §3.3; RFC 7489 §6.6.3 and RFC 6376 §3.6.2.2 do the same).
 */
export function txtTexts(records: readonly DnsRecord[]): string[] {
  return records.map((r) => (Array.isArray(r.value) ? r.value.join('') : String(r.value)));
}

/** A short description of a failed lookup for findings. */
export function describeFailure(name: string, type: RecordType, result: LookupResult): string {
  if (result.ok) return '';
  if (result.rcode === 'TIMEOUT') return `the ${type} lookup of ${name} timed out`;
  if (result.rcode === 'ERROR') return `the ${type} lookup of ${name} failed`;
  return `the ${type} lookup of ${name} answered ${result.rcode}`;
}
