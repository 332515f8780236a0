/**
 * IP intelligence → the score's privacy signals (`scoreIp` input).
 * @module
 */
import type { IpInfo } from '../ip/types.js';
import type { PrivacySignals } from '../score/index.js';

/**
 * IP intelligence → privacy signals. IP intelligence also marks a Tor exit as a proxy; the
 * score counts it once, as a Tor exit, unless a proxy signal of its own is present.
 */
export function privacySignalsOf(info: IpInfo): PrivacySignals {
  const p = info.privacy;
  const sourceOf = (name: string) => {
    const found = p.signals.filter((s) => s.signal === name);
    // Each with the data behind it and its version: `[dataset version]`.
    return found.length > 0
      ? found.map((s) => `${s.source}: ${s.evidence} [${s.dataset} ${s.version}]`).join('; ')
      : undefined;
  };
  const proxyOwn = p.signals.some((s) => s.signal === 'proxy');
  const sources: NonNullable<PrivacySignals['sources']> = {};
  for (const [key, signal] of [
    ['tor', 'tor'],
    ['vpn', 'vpn'],
    ['proxy', 'proxy'],
    ['proxy', 'relay'],
    ['datacenter', 'hosting'],
    ['mobile', 'mobile'],
    ['residential', 'residential'],
  ] as const) {
    const source = sourceOf(signal);
    if (source) sources[key] = sources[key] ? `${sources[key]}; ${source}` : source;
  }
  return {
    tor: p.is_tor,
    vpn: p.is_vpn,
    proxy: p.is_proxy && (!p.is_tor || proxyOwn || p.is_relay),
    relay: p.is_relay,
    datacenter: p.is_hosting,
    mobile: p.is_mobile,
    residential: p.is_residential,
    sources,
  };
}
