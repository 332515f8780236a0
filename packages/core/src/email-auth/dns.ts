/**
 * Helpers over the `DnsResolver` seam: one answer kind per outcome (records, NXDOMAIN, NODATA,
 * failure) for the findings, and TXT strings joined as RFC 7208 §3.3 and RFC 7489 §6.6.3 do.
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

export function lookupOptions(signal: AbortSignal, dnsTimeout: number | undefined): LookupOptions {
  return { signal, ...(dnsTimeout !== undefined ? { timeout: dnsTimeout } : {}) };
}

export function resolverOf(resolver: DnsResolver | undefined): DnsResolver {
  return resolver ?? getDefaultResolver();
}

/** A section's options as its body sees them, with the resolver, signal and query options. */
export type SectionRun<O> = O & {
  resolver: DnsResolver;
  signal: AbortSignal;
  lookup: LookupOptions;
};

/**
 * A section analyser `(domain, options)` from its body: run within `timeout` (default 20 s;
 * `TimeoutError('email-auth')`) and `signal`, with the shared resolver when none is given.
 */
export function sectionAnalyser<O extends EmailAuthSectionOptions, T>(
  section: (domain: string, run: SectionRun<O>) => Promise<T>,
): (domain: string, options?: O) => Promise<T> {
  return (domain, options = {} as O) => {
    const resolver = resolverOf(options.resolver);
    const run = (signal: AbortSignal) => {
      const lookup = lookupOptions(signal, options.dnsTimeout);
      return section(domain, { ...options, resolver, signal, lookup });
    };
    return withTimeout(options, 'email-auth', run, EMAIL_AUTH_DEFAULT_TIMEOUT_MS);
  };
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

/** Each TXT record's strings joined without separators (RFC 7208 §3.3, RFC 7489 §6.6.3). */
export function txtTexts(records: readonly DnsRecord[]): string[] {
  return records.map((r) => (Array.isArray(r.value) ? r.value.join('') : String(r.value)));
}

/** The addresses of `host` (A and AAAA unless `types` says) and the alias it is, if any. */
export async function addressesOf(
  resolver: DnsResolver,
  host: string,
  lookup: LookupOptions,
  types: RecordType[] = ['A', 'AAAA'],
): Promise<{ ok: true; addresses: string[]; cname: string | null } | { ok: false; error: string }> {
  const results = await Promise.all(types.map((type) => tryLookup(resolver, host, type, lookup)));
  const answered = results.filter((r): r is Extract<LookupResult, { ok: true }> => r.ok);
  if (answered.length === 0) {
    return { ok: false, error: describeFailure(host, 'A', results[0] as LookupResult) };
  }
  const addresses = answered.flatMap((r) => r.records).map((r) => String(r.value));
  const answers = answered.flatMap((r) => r.answers);
  const alias = answers.find((r) => r.type === 'CNAME' && r.name === host);
  return { ok: true, addresses, cname: alias ? String(alias.value) : null };
}

/** A short description of a failed lookup for findings. */
export function describeFailure(name: string, type: RecordType, result: LookupResult): string {
  if (result.ok) return '';
  if (result.rcode === 'TIMEOUT') return `the ${type} lookup of ${name} timed out`;
  if (result.rcode === 'ERROR') return `the ${type} lookup of ${name} failed`;
  return `the ${type} lookup of ${name} answered ${result.rcode}`;
}
