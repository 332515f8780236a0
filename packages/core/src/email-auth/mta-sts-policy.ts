/**
 * The MTA-STS policy file (RFC 8461 §3.2, §3.3): fetched with the SSRF-safe client (certificate
 * verified, no redirects, a size cap), parsed, and its `mx` patterns matched (§4.1).
 * @module
 */
import type { z } from 'zod';
import { isNetdiagError } from '../errors.js';
import type { DnsResolver } from '../net/dns-types.js';
import type { CidrSet } from '../net/ranges.js';
import { headerValue, safeFetch } from '../net/safe-fetch.js';
import type { BaseOptions } from '../types.js';
import type { mtaStsPolicySchema } from './schema.js';

/** §3.2: max_age is at most 31557600 seconds (about one year). */
export const MTA_STS_MAX_AGE_LIMIT = 31_557_600;
/** Policy bodies read at most (a policy is a few lines; the cap bounds what a hostile host sends). */
export const MTA_STS_POLICY_MAX_BYTES = 64 * 1024;

/** A parsed policy file: the answer's `policy` plus what is wrong with the file's contents. */
export interface MtaStsPolicy extends z.output<typeof mtaStsPolicySchema> {
  /** Problems with the file's contents (they become findings, not part of `policy`). */
  errors: string[];
}

/** Parses the `key: value` lines of a policy (CRLF or LF, §3.2). Never throws. */
export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { version: null, mode: null, mx: [], max_age: null, errors: [] };
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon === -1) {
      policy.errors.push(`"${line.slice(0, 40)}" is not a "key: value" line`);
      continue;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    // §3.2: only mx may repeat; for other fields the first one counts.
    if (key !== 'mx' && seen.has(key)) continue;
    seen.add(key);
    switch (key) {
      case 'version':
        policy.version = value;
        if (value !== 'STSv1') policy.errors.push(`version "${value}" is not STSv1`);
        break;
      case 'mode':
        if (value === 'enforce' || value === 'testing' || value === 'none') policy.mode = value;
        else policy.errors.push(`mode "${value}" is not enforce, testing or none`);
        break;
      case 'max_age':
        if (/^\d{1,10}$/.test(value) && Number(value) <= MTA_STS_MAX_AGE_LIMIT) {
          policy.max_age = Number(value);
        } else {
          policy.errors.push(
            `max_age "${value}" is not a number of seconds up to ${MTA_STS_MAX_AGE_LIMIT}`,
          );
        }
        break;
      case 'mx':
        if (/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i.test(value)) {
          policy.mx.push(value.toLowerCase().replace(/\.$/, ''));
        } else {
          policy.errors.push(`mx "${value}" is not a host name or *.domain pattern`);
        }
        break;
      default:
        break; // §3.2: unknown fields are ignored
    }
  }
  if (policy.version === null) policy.errors.push('the required "version: STSv1" line is missing');
  if (policy.mode === null && !policy.errors.some((e) => e.startsWith('mode'))) {
    policy.errors.push('the required "mode" line is missing');
  }
  if (policy.max_age === null && !policy.errors.some((e) => e.startsWith('max_age'))) {
    policy.errors.push('the required "max_age" line is missing');
  }
  if (policy.mx.length === 0 && policy.mode !== 'none') {
    policy.errors.push('no "mx" line: with mode enforce or testing, no MX host is valid');
  }
  return policy;
}

/** §4.1: exact match, or `*.` matching exactly one left-most label. */
export function mxMatchesPattern(host: string, pattern: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!pattern.startsWith('*.')) return name === pattern;
  const suffix = pattern.slice(1);
  return (
    name.endsWith(suffix) &&
    !name.slice(0, -suffix.length).includes('.') &&
    name.length > suffix.length
  );
}

export interface FetchMtaStsPolicyOptions extends BaseOptions {
  /** Resolves the policy host. @default the library's shared resolver */
  resolver?: DnsResolver;
  /** CIDRs exempt from the SSRF block (NETDIAG_ALLOWED_TARGETS). */
  allowedTargets?: readonly string[] | CidrSet;
  /** Extra trusted CA certificates (PEM). */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** Budget of the fetch in ms (`false`: none). @default 10000 (CONTRACT §4) */
  timeout?: number | false;
}

/**
 * GETs the policy: valid certificate, no redirects (§3.3), 200 with text/plain (§3.2). Every
 * failure, the SSRF guard's refusal included, is returned as an error; only an abort throws.
 */
export async function fetchMtaStsPolicy(
  url: string,
  options: FetchMtaStsPolicyOptions = {},
): Promise<{ ok: true; policy: MtaStsPolicy } | { ok: false; error: string }> {
  try {
    const response = await safeFetch(url, {
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.allowedTargets ? { allowedTargets: options.allowedTargets } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      maxRedirects: 0,
      maxBytes: MTA_STS_POLICY_MAX_BYTES,
      tlsPolicy: 'verify',
    });
    if (response.status !== 200) {
      return {
        ok: false,
        error: `${url} answered HTTP ${response.status}; a policy needs 200 (RFC 8461 §3.3)`,
      };
    }
    const type = (headerValue(response.headers, 'content-type') ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type !== 'text/plain') {
      return {
        ok: false,
        error: `${url} is served as "${type || 'no type'}"; a policy must be text/plain (RFC 8461 §3.2)`,
      };
    }
    return { ok: true, policy: parseMtaStsPolicy(response.body.toString('utf8')) };
  } catch (error) {
    if (isNetdiagError(error, 'ABORTED')) throw error;
    return { ok: false, error: `${url}: ${(error as Error).message}` };
  }
}
