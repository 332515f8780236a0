/**
 * The classic WHOIS referral chain: ask the root (IANA), follow its `refer:` to the TLD's
 * registry, and — when the registry is thin and leaves fields empty — follow its
 * `Registrar WHOIS Server:` to the registrar. Every hop is bounded in time and bytes.
 * @module
 */
import { isNetdiagError, NotFoundError, ThrottledError, UpstreamError } from '../errors.js';
import { allowedSet } from '../net/guard.js';
import { checkReferredHost } from '../net/upstream-guard.js';
import { fillGaps, hasGaps } from './rdap-normalise.js';
import type { WhoisClientOptions, WhoisResult } from './types.js';
import {
  formatWhoisServer,
  parseWhoisServer,
  queryWhoisServer,
  WHOIS_PORT,
  type WhoisServer,
} from './whois-client.js';
import { type ParsedWhois, parseWhoisText } from './whois-parser.js';

export const DEFAULT_WHOIS_SERVER = 'whois.iana.org:43';

/** Referrals followed after the root: IANA → registry (→ a second registry referral). */
const MAX_REFERRALS = 2;

/** Retry time when a WHOIS server says its limit is exceeded: WHOIS carries no Retry-After. */
export const WHOIS_THROTTLE_RETRY_S = 60;

export interface WhoisChainOptions extends WhoisClientOptions {
  signal?: AbortSignal;
  /** Follow the registrar referral of a thin registry. @default true */
  followRegistrar?: boolean;
}

export interface WhoisChainResult {
  record: WhoisResult;
  /** The servers asked, in order (`host[:port]`). */
  servers: string[];
}

/** The query line for a server: the bare name, or the flags a registry documents. */
export function whoisQueryFor(server: WhoisServer, domain: string): string {
  switch (server.host) {
    case 'whois.denic.de':
      return `-T dn,ace ${domain}`; // DENIC: domain object, ASCII output
    case 'whois.jprs.jp':
      return `${domain}/e`; // JPRS: English output
    case 'whois.verisign-grs.com':
    case 'whois.crsnic.net':
      return `domain ${domain}`; // Verisign: domain records only, not hosts or registrars
    default:
      return domain;
  }
}

/** Looks `domain` up over WHOIS. Throws `NotFoundError`, `ThrottledError`, `UpstreamError`. */
export async function lookupWhoisChain(
  domain: string,
  options: WhoisChainOptions = {},
): Promise<WhoisChainResult> {
  const rootText = options.whoisServer ?? DEFAULT_WHOIS_SERVER;
  const root = parseWhoisServer(rootText);
  if (!root) throw new UpstreamError('whois', `"${rootText}" is not a WHOIS server address`);
  const servers: string[] = [];
  /** `referred`: the server was named by an answer, not by configuration: guard it. */
  const ask = async (server: WhoisServer, referred: boolean): Promise<ParsedWhois> => {
    servers.push(formatWhoisServer(server));
    const query = whoisQueryFor(server, domain);
    const address = referred ? await checkReferral(server, options) : undefined;
    const answer = await queryWhoisServer(
      { server, query, ...(address ? { address } : {}) },
      {
        signal: options.signal,
        timeoutMs: options.whoisHopTimeoutMs,
        maxBytes: options.whoisMaxBytes,
        resolver: options.resolver,
      },
    );
    return parseWhoisText(answer.text);
  };

  let parsed = await ask(root, false);
  let hops = 0;
  while (parsed.referral_server && hops < MAX_REFERRALS) {
    const next = parseWhoisServer(parsed.referral_server);
    if (!next || servers.includes(formatWhoisServer(next))) break;
    parsed = await ask(next, true);
    hops++;
  }
  if (parsed.outcome === 'limit_exceeded') {
    throw new ThrottledError('whois', WHOIS_THROTTLE_RETRY_S);
  }
  if (parsed.outcome === 'refused') {
    // "440 Request Denied" (.nz): no "not found" but a failure to answer, quoted.
    const words = parsed.refusal.replace(/\p{Cc}/gu, ' ').slice(0, 80);
    throw new UpstreamError('whois', `the registry's WHOIS server refused the query: "${words}"`);
  }
  // An answer about another name (IANA's record of the TLD itself, when the TLD has no WHOIS
  // server to refer to) says nothing about this domain.
  const aboutOther = parsed.domain !== '' && parsed.domain !== domain;
  if (parsed.outcome === 'not_found' || (hops === 0 && aboutOther)) {
    throw new NotFoundError(`Domain not found in WHOIS: ${domain}`, 'whois');
  }

  let record = toRecord(parsed, domain);
  const registrarServer = parseWhoisServer(parsed.registrar_whois_server);
  if (
    (options.followRegistrar ?? true) &&
    registrarServer &&
    !servers.includes(formatWhoisServer(registrarServer)) &&
    hasGaps(record)
  ) {
    try {
      const extra = await ask(registrarServer, true);
      if (extra.outcome === 'found') record = fillGaps(record, toRecord(extra, domain));
    } catch (error) {
      // The registrar hop only adds data; its failure (not a caller abort) leaves the answer.
      if (!isNetdiagError(error) || options.signal?.aborted) throw error;
    }
  }
  return { record, servers };
}

/**
 * The SSRF guard for a WHOIS referral, which comes from a remote answer: the host is resolved
 * once, every address must be public and the port 43 (RFC 3912), unless NETDIAG_ALLOWED_TARGETS
 * covers every address. Returns the checked address; throws `UpstreamError('whois')`.
 */
async function checkReferral(server: WhoisServer, options: WhoisChainOptions): Promise<string> {
  const what = `the WHOIS referral to ${formatWhoisServer(server)}`;
  const allowed = allowedSet(options.allowedTargets);
  // The address first (a literal needs no DNS), then the port: nothing is sent before both pass.
  const addresses = await checkReferredHost(server.host, what, 'whois', {
    resolver: options.resolver,
    allowedTargets: allowed,
    signal: options.signal,
  });
  if (server.port !== WHOIS_PORT && !addresses.every((a) => allowed.has(a))) {
    throw new UpstreamError(
      'whois',
      `refused to follow ${what}: port ${server.port} (WHOIS referrals must use port ${WHOIS_PORT})`,
    );
  }
  return addresses[0] as string;
}

function toRecord(parsed: ParsedWhois, domain: string): WhoisResult {
  const {
    outcome,
    domain: _,
    referral_server,
    registrar_whois_server,
    refusal,
    ...fields
  } = parsed;
  return { domain, ...fields, rdap_link: '' };
}
