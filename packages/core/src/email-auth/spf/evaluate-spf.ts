/**
 * `evaluateSpf`: the RFC 7208 check for one client IP, sender and HELO name, with the identities
 * of §2.3/§2.4, the §4.6.4 time limit and the explanation of a "fail" (§6.2).
 * @module
 */
import type { z } from 'zod';
import { InvalidInputError, isNetdiagError } from '../../errors.js';
import { requireIp } from '../../net/ip.js';
import { withTimeout } from '../../net/signal.js';
import { lookupOptions, resolverOf } from '../dns.js';
import type { spfEvaluationSchema } from '../schema.js';
import type { EmailAuthDnsOptions } from '../types.js';
import {
  type CheckHostState,
  checkHost,
  explain,
  SPF_VOID_LOOKUP_LIMIT,
  SpfAbort,
  type SpfResult,
} from './check-host.js';

/**
 * §4.6.4: "MTAs or other processors SHOULD impose a limit on the maximum amount of elapsed time
 * to evaluate check_host(). Such a limit SHOULD allow at least 20 seconds."
 */
export const SPF_DEFAULT_TIMEOUT_MS = 20_000;

/** The connection evaluated: the client address and the identities it presented. */
export interface EvaluateSpfInput {
  /** The SMTP client's address (IPv4, IPv6; IPv4-mapped IPv6 counts as IPv4, §5). */
  ip: string;
  /**
   * The MAIL FROM address. Empty or absent is the null sender: the identity becomes
   * `postmaster@<helo>` (§2.4).
   */
  sender?: string;
  /** The HELO/EHLO name (`%{h}`). @default the sender's domain */
  helo?: string;
  /**
   * The domain whose policy is checked (check_host's `<domain>`).
   * @default the sender's domain, or the HELO name for the null sender
   */
  domain?: string;
}

export interface EvaluateSpfOptions extends EmailAuthDnsOptions {
  /** `%{r}` in explanations: the checking host's name. @default 'unknown' (§7.3) */
  receiver?: string;
  /** Void-lookup limit (§4.6.4 "MAY choose to make such a limit configurable"). @default 2 */
  voidLookupLimit?: number;
  /** Budget of each DNS query in ms. @default the resolver's own */
  dnsTimeout?: number;
  /** Clock for `%{t}`. @default Date.now */
  now?: () => number;
  /** Time limit of the whole check; on expiry the result is temperror (§4.6.4). @default 20000 */
  timeout?: number | false;
}

/** One RFC 7208 check_host() result with its reason, the identities used and the trace. */
export type SpfEvaluation = z.output<typeof spfEvaluationSchema>;

/** Runs check_host() for one connection. Throws only for bad input and caller aborts. */
export async function evaluateSpf(
  input: EvaluateSpfInput,
  options: EvaluateSpfOptions = {},
): Promise<SpfEvaluation> {
  const ip = requireIp(input.ip, 'ip');
  const { domain, ...identity } = identities(input);
  const state: CheckHostState = {
    ...identity,
    resolver: resolverOf(options.resolver),
    lookup: {},
    ip,
    receiver: options.receiver ?? 'unknown',
    now: options.now ?? Date.now,
    voidLimit: options.voidLookupLimit ?? SPF_VOID_LOOKUP_LIMIT,
    lookups: 0,
    voids: 0,
    trace: [],
  };
  const base = { ip: ip.address, domain, sender: identity.sender, helo: identity.helo };
  const finish = (
    result: SpfResult,
    reason: string,
    extra: Partial<SpfEvaluation> = {},
  ): SpfEvaluation => ({
    result,
    reason,
    explanation: null,
    ...base,
    matched_term: null,
    matched_domain: null,
    dns_lookups: state.lookups,
    void_lookups: state.voids,
    trace: state.trace,
    ...extra,
  });

  try {
    return await withTimeout(
      options,
      'spf',
      async (signal) => {
        state.lookup = lookupOptions(signal, options.dnsTimeout);
        try {
          const outcome = await checkHost(state, domain, 0);
          const explanation =
            outcome.result === 'fail' && outcome.exp ? await explain(state, outcome.exp) : null;
          return finish(outcome.result, outcome.reason, {
            explanation,
            matched_term: outcome.matchedTerm ?? null,
            matched_domain: outcome.matchedDomain ?? null,
          });
        } catch (error) {
          if (error instanceof SpfAbort) return finish(error.result, error.message);
          throw error;
        }
      },
      SPF_DEFAULT_TIMEOUT_MS,
    );
  } catch (error) {
    // §4.6.4: exceeding the elapsed-time limit SHOULD give temperror.
    if (isNetdiagError(error, 'UPSTREAM_TIMEOUT')) {
      const ms = (error as { timeoutMs?: number }).timeoutMs;
      return finish(
        'temperror',
        `the check did not finish within ${ms ?? SPF_DEFAULT_TIMEOUT_MS} ms (RFC 7208 §4.6.4)`,
      );
    }
    throw error;
  }
}

/** §2.3, §2.4, §4.3: who is checked, and what `s`, `l`, `o` and `h` expand to. */
function identities(input: EvaluateSpfInput) {
  const clean = (value: string | undefined, param: string) => {
    const text = (value ?? '').trim();
    if (text.length > 1024) {
      throw new InvalidInputError(`"${param}" is too long (at most 1024 characters)`, param);
    }
    return text;
  };
  const rawSender = clean(input.sender, 'sender');
  const rawHelo = clean(input.helo, 'helo');
  const rawDomain = clean(input.domain, 'domain');
  const lowerDomain = (name: string) => name.toLowerCase().replace(/\.$/, '');

  let local = 'postmaster';
  let senderDomain: string;
  if (rawSender === '' || rawSender === '<>') {
    senderDomain = lowerDomain(rawHelo || rawDomain);
  } else {
    const at = rawSender.lastIndexOf('@');
    if (at === -1) {
      throw new InvalidInputError(
        '"sender" must be an email address such as user@example.com (empty for the null sender)',
        'sender',
      );
    }
    // §4.3: an empty local-part is replaced by "postmaster".
    local = rawSender.slice(0, at) || 'postmaster';
    senderDomain = lowerDomain(rawSender.slice(at + 1));
  }
  const domain = rawDomain ? lowerDomain(rawDomain) : senderDomain;
  if (domain === '') {
    throw new InvalidInputError(
      'SPF evaluation needs a domain, a sender address or a HELO name',
      'domain',
    );
  }
  return {
    sender: `${local}@${senderDomain || domain}`,
    local,
    senderDomain: senderDomain || domain,
    helo: rawHelo || senderDomain || domain,
    domain,
  };
}
