/**
 * AS-level evidence learnt from the provider ranges in use: an AS that announces several of a
 * cloud's, CDN's or crawler's published ranges is that provider's network, so the rest of its
 * space is hosting too. Access networks are left out: CDNs place cache servers inside ISPs.
 * @module
 */
import type { AsnIndex } from '../asn/asn-index.js';
import { type IpIntel, metaOf } from './intel.js';
import type { IntelSourceMeta } from './intel-pack.js';
import type { SignalLists } from './signal-lists.js';

/** Ranges of one provider an AS must announce to count as that provider's network. */
export const PROVIDER_AS_MIN_RANGES = 3;

/** Tier of the learnt evidence: with the hosting AS lists. */
const PROVIDER_AS_TIER = 10;

/**
 * AS number → the provider sources whose ranges it announces at least `PROVIDER_AS_MIN_RANGES`
 * times (IPv4 and IPv6 ranges, by the AS of each range's first address).
 */
export function providerAses(
  intel: IpIntel,
  asn: AsnIndex,
  lists: SignalLists,
): Map<number, { source: IntelSourceMeta; name: string }[]> {
  const access = (n: number) =>
    lists.lists.isp.has(n) ||
    lists.lists.mobile.has(n) ||
    (intel.asLists.get(n) ?? []).some((l) => l.source.signal === 'isp');
  const out = new Map<number, { source: IntelSourceMeta; name: string }[]>();
  for (const source of intel.data.sources) {
    if (source.tier !== 5 || source.signal !== 'hosting' || !source.ranges) continue;
    const counts = new Map<number, number>();
    const count = (row: number, v6: boolean) => {
      if (row < 0) return;
      const n = asn.asnOf(v6 ? asn.entryOfV6Row(row) : asn.entryOfV4Row(row));
      counts.set(n, (counts.get(n) ?? 0) + 1);
    };
    const { v4, v6 } = source.ranges;
    for (let i = 0; i < v4.length; i += 2) count(asn.findV4(v4[i] as number), false);
    for (let i = 0; i < v6.length; i += 4) {
      count(asn.findV6(v6[i] as number, v6[i + 1] as number, 0, 0), true);
    }
    const meta: IntelSourceMeta = {
      ...metaOf(source),
      id: `${source.id}#as`,
      kind: 'asn-list',
      signal: 'hosting',
      tier: PROVIDER_AS_TIER,
    };
    for (const [n, c] of counts) {
      if (c < PROVIDER_AS_MIN_RANGES || access(n)) continue;
      const list = out.get(n) ?? [];
      if (list.length === 0) out.set(n, list);
      list.push({ source: meta, name: `announces ${c} published ${source.provider} ranges` });
    }
  }
  return out;
}
