/**
 * Privacy classification of an AS (and of a Tor exit address), with the evidence for every
 * flag. Per-AS results are computed once per AS entry and shared.
 *
 * Rules, in the order they are applied:
 * - hosting, vpn, proxy, mobile: the AS number is in the matching `data/asn-*.tsv` list, or
 *   (when it is not listed anywhere) its name contains a keyword of `data/as-name-keywords.tsv`;
 * - tor: the address is in the Tor Project's bulk exit list; a Tor exit is also a proxy;
 * - residential: an announced address with none of the above (listed ISPs say so with
 *   `isp-list` evidence, others with `no-other-signal`).
 * `type` (SPEC 2.3) is `vpn` for vpn/proxy/tor, else `datacenter` for hosting, else `residential`.
 *
 * The booleans here are per-signal evidence (`is_vpn`: a VPN-provider signal; a Tor exit is
 * `is_tor` and `is_proxy`), the input of the score. The SPEC 2.3 privacy object of the caller
 * endpoints, where `type` and `is_vpn`/`is_datacenter`/`is_residential` never disagree, is
 * computed from them by `scoreIp` (score/score-ip.ts, docs/caller.md).
 * @module
 */
import type { IpPrivacy, PrivacySignal, PrivacySignalName } from '../types.js';
import type { ListedSignal, SignalLists } from './signal-lists.js';

export const EMPTY_PRIVACY: Readonly<IpPrivacy> = Object.freeze({
  type: 'residential',
  is_hosting: false,
  is_vpn: false,
  is_proxy: false,
  is_tor: false,
  is_mobile: false,
  is_residential: false,
  signals: Object.freeze([]),
});

const LISTED: readonly Exclude<ListedSignal, 'isp'>[] = ['hosting', 'vpn', 'proxy', 'mobile'];

/** Privacy of an address announced by AS `asn` named `name` (not a Tor exit). */
export function classifyAs(asn: number, name: string, lists: SignalLists): Readonly<IpPrivacy> {
  const signals: PrivacySignal[] = [];
  const listedAnywhere = LISTED.some((s) => lists.lists[s].has(asn)) || lists.lists.isp.has(asn);
  for (const signal of LISTED) {
    const entry = lists.lists[signal].get(asn);
    if (entry) {
      signals.push({
        signal,
        source: 'asn-list',
        evidence: `AS${asn} is listed in ${entry.file}: ${entry.reason}`,
      });
    }
  }
  if (!listedAnywhere && name !== '') {
    const seen = new Set<string>();
    for (const keyword of lists.keywords) {
      if (seen.has(keyword.signal) || !keyword.pattern.test(name)) continue;
      seen.add(keyword.signal);
      signals.push({
        signal: keyword.signal,
        source: 'as-name-keyword',
        evidence: `AS${asn} name "${name}" contains "${keyword.keyword}" (data/as-name-keywords.tsv: ${keyword.reason})`,
      });
    }
  }
  if (signals.length === 0) {
    const isp = lists.lists.isp.get(asn);
    signals.push(
      isp
        ? {
            signal: 'residential',
            source: 'isp-list',
            evidence: `AS${asn} is listed in ${isp.file}: ${isp.reason}`,
          }
        : {
            signal: 'residential',
            source: 'no-other-signal',
            evidence: `AS${asn} has no hosting, VPN, proxy, Tor or mobile signal`,
          },
    );
  }
  return summarise(signals);
}

/** Adds the Tor exit signal (which also makes the address a proxy) to an AS's privacy. */
export function withTorExit(base: Readonly<IpPrivacy>): Readonly<IpPrivacy> {
  const signals = base.signals.filter((s) => s.signal !== 'residential');
  signals.push({
    signal: 'tor',
    source: 'tor-exit-list',
    evidence: 'The address is in the Tor Project bulk exit list (NETDIAG_TOR_EXIT_LIST_URL)',
  });
  return summarise(signals);
}

function summarise(signals: PrivacySignal[]): Readonly<IpPrivacy> {
  const has = (name: PrivacySignalName) => signals.some((s) => s.signal === name);
  const tor = has('tor');
  const vpn = has('vpn');
  const proxy = has('proxy') || tor;
  const hosting = has('hosting');
  return Object.freeze({
    type: vpn || proxy ? 'vpn' : hosting ? 'datacenter' : 'residential',
    is_hosting: hosting,
    is_vpn: vpn,
    is_proxy: proxy,
    is_tor: tor,
    is_mobile: has('mobile'),
    is_residential: has('residential'),
    signals: Object.freeze(signals.map((s) => Object.freeze(s))),
  });
}
