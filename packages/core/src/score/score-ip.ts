/**
 * `scoreIp`: the cleanliness score of an address from its privacy signals and DNSBL answers,
 * pure, the same everywhere (numbers in `weights.ts`). The SPEC 2.3 type and its booleans are one
 * classification (docs/caller.md, "type and the is_* booleans"):
 *
 * | signals present                           | type          | is_vpn | is_datacenter | is_residential |
 * |-------------------------------------------|---------------|--------|---------------|----------------|
 * | Tor exit, VPN or proxy (any anonymiser)   | `vpn`         | true   | false         | false          |
 * | datacenter/hosting, no anonymiser         | `datacenter`  | false  | true          | false          |
 * | neither (ISP lines, and addresses with no | `residential` | false  | false         | true           |
 * | data: special-purpose/bogon, unannounced) |               |        |               |                |
 *
 * `is_tor`, `is_proxy` and `is_mobile` are the raw signals (a Tor exit has `is_vpn: true` and
 * `is_tor: true`). The `Residential ISP` flag needs positive evidence: type `residential` and IP
 * intelligence not saying otherwise (a bogon has `is_residential: true` but no such flag).
 * @module
 */
import type { z } from 'zod';
import type { addressTypeSchema, scoreEvidenceSchema } from '../caller/schema.js';
import {
  BASE_SCORE,
  FLAG_TEXT,
  GRADES,
  type Grade,
  type GradeLabel,
  SCORE_WEIGHTS,
  type ScoreSignal,
} from './weights.js';

/** The privacy signals of an address, as IP intelligence classifies it. */
export interface PrivacySignals {
  tor?: boolean;
  vpn?: boolean;
  proxy?: boolean;
  /** A privacy relay's egress (also `proxy`): adds the `Privacy relay` flag. */
  relay?: boolean;
  /** Datacenter / hosting network. */
  datacenter?: boolean;
  mobile?: boolean;
  residential?: boolean;
  /** Where each signal came from (dataset, list, ASN rule), quoted in the evidence. */
  sources?: Partial<
    Record<'tor' | 'vpn' | 'proxy' | 'datacenter' | 'mobile' | 'residential', string>
  >;
}

/** One DNSBL's answer, a `checkBlacklist` result entry (CONTRACT §6 `status`). */
export interface DnsblAnswer {
  name: string;
  zone: string;
  status: string;
}

export interface ScoreIpOptions {
  signals: PrivacySignals;
  /**
   * The DNSBL answers; `undefined`: not checked; `null`: the check failed. `null`, or no list
   * answering, gives a `dnsbl_unavailable` evidence item and no DNSBL part in the score.
   */
  dnsbl?: readonly DnsblAnswer[] | null;
}

/** One evidence item: a signal, the points it added (0: information only), what and where. */
export type ScoreEvidence = z.output<typeof scoreEvidenceSchema>;

export type AddressType = z.output<typeof addressTypeSchema>;

/** The whole score of an address; the answers pick from it (raw `is_tor` etc. stay here). */
export interface IpScore {
  /** `vpn` for any anonymiser, else `datacenter`, else `residential` (also without data). */
  type: AddressType;
  /** 0–100, higher is cleaner. */
  score: number;
  grade: Grade;
  label: GradeLabel;
  /** Fixed texts: Tor exit node, Listed on N spam blacklists, Mobile network, Residential ISP. */
  flags: string[];
  /** Every signal that moved the score, its weight and source; unanswered DNSBLs named. */
  evidence: ScoreEvidence[];
  /** `type === 'vpn'`: any anonymiser (VPN provider, proxy or Tor exit). */
  is_vpn: boolean;
  /** `type === 'datacenter'`: a hosting network with no anonymiser signal. */
  is_datacenter: boolean;
  /** `type === 'residential'`: no anonymiser and no hosting signal. */
  is_residential: boolean;
  /** Raw signal: the address is a Tor exit. */
  is_tor: boolean;
  /** Raw signal: a proxy of its own (a Tor exit alone is not counted twice). */
  is_proxy: boolean;
  /** Raw signal: a mobile carrier network. */
  is_mobile: boolean;
}

/** Scores one address. Never throws for well-typed input. */
export function scoreIp(options: ScoreIpOptions): IpScore {
  const s = options.signals;
  const present: Record<ScoreSignal, boolean> = {
    tor_exit: s.tor === true,
    vpn: s.vpn === true,
    proxy: s.proxy === true,
    datacenter: s.datacenter === true,
    dnsbl_listed: false,
    mobile: s.mobile === true,
    residential: false,
  };
  const type: AddressType =
    present.tor_exit || present.vpn || present.proxy
      ? 'vpn'
      : present.datacenter
        ? 'datacenter'
        : 'residential';
  // "Residential ISP": type `residential` and IP intelligence not saying otherwise.
  present.residential = type === 'residential' && s.residential !== false;

  const evidence: ScoreEvidence[] = [];
  const sources: Partial<Record<string, string>> = s.sources ?? {};
  let score = BASE_SCORE;
  const listed = (options.dnsbl ?? []).filter((a) => a.status === 'listed');
  for (const w of SCORE_WEIGHTS) {
    if (w.signal === 'dnsbl_listed') {
      let total = 0;
      for (const answer of listed) {
        const step = Math.max(w.weight, (w.cap ?? -Infinity) - total);
        total += step;
        evidence.push({
          signal: 'dnsbl_listed',
          weight: step,
          detail: `listed on ${answer.name}${step === w.weight ? '' : ` (cap of ${w.cap} reached)`}`,
          source: answer.zone,
        });
      }
      score += total;
      continue;
    }
    if (!present[w.signal] || w.weight === 0) continue;
    score += w.weight;
    evidence.push({
      signal: w.signal,
      weight: w.weight,
      detail: w.meaning,
      source: sources[w.signal === 'tor_exit' ? 'tor' : w.signal] ?? 'IP intelligence',
    });
  }
  if (options.dnsbl !== undefined) {
    const answers = options.dnsbl ?? [];
    const answered = answers.some((a) => a.status === 'listed' || a.status === 'not_listed');
    // No list answered: the same as a failed check, never "not listed anywhere".
    const silent = answers.filter((a) =>
      answered ? a.status === 'error' || a.status === 'timeout' : a.status !== 'skipped',
    );
    const names = silent.map((a) => a.name).join(', ');
    const source = silent.map((a) => a.zone).join(', ') || 'DNSBL';
    if (!answered) {
      const why =
        options.dnsbl === null
          ? ''
          : `: ${silent.length > 0 ? `no list answered (no usable answer from ${names})` : 'no list could be asked about this address'}`;
      const detail = `the DNSBL check could not be done${why}; scored without DNSBL evidence`;
      evidence.push({ signal: 'dnsbl_unavailable', weight: 0, detail, source });
    } else if (silent.length > 0) {
      const detail = `no usable answer from ${silent.length} list${silent.length === 1 ? '' : 's'}: ${names}; scored on the lists that answered`;
      evidence.push({ signal: 'dnsbl_unavailable', weight: 0, detail, source });
    }
  }

  score = Math.min(100, Math.max(0, Math.round(score)));
  const grade = GRADES.find((g) => score >= g.min) ?? (GRADES.at(-1) as (typeof GRADES)[number]);
  const flags: string[] = [];
  if (present.tor_exit) flags.push(FLAG_TEXT.tor);
  if (s.relay === true && present.proxy) flags.push(FLAG_TEXT.relay);
  if (listed.length > 0) flags.push(FLAG_TEXT.blacklisted(listed.length));
  if (present.mobile) flags.push(FLAG_TEXT.mobile);
  if (present.residential) flags.push(FLAG_TEXT.residential);
  return {
    type,
    score,
    grade: grade.grade,
    label: grade.label,
    flags,
    evidence,
    is_vpn: type === 'vpn',
    is_datacenter: type === 'datacenter',
    is_residential: type === 'residential',
    is_tor: present.tor_exit,
    is_proxy: present.proxy,
    is_mobile: present.mobile,
  };
}
