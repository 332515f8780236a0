/**
 * `scoreIp`: the cleanliness score of an address from its privacy signals and DNSBL answers.
 * Pure and synchronous: the same signals give the same score everywhere (`/api/ip`,
 * `/api/v1/ip`, `/api/score`, the CLI). The numbers live in `weights.ts`.
 *
 * The SPEC 2.3 type and its booleans (docs/caller.md, "type and the is_* booleans") are one
 * classification, so they can never disagree:
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

/**
 * One DNSBL's answer, the shape of a `checkBlacklist` result entry (CONTRACT §6): `status` is
 * `listed`, `not_listed`, `error`, `timeout` or `skipped`.
 */
export interface DnsblAnswer {
  name: string;
  zone: string;
  status: string;
}

export interface ScoreIpOptions {
  signals: PrivacySignals;
  /**
   * The DNSBL answers. `undefined`: not checked (no DNSBL evidence); `null`: the check failed
   * as a whole. `null` and answers in which no list answered (`listed` or `not_listed`) are
   * treated alike: a `dnsbl_unavailable` evidence item says the DNSBL step could not be done
   * and the score has no DNSBL part (no listing penalty, no claim that the address is unlisted).
   */
  dnsbl?: readonly DnsblAnswer[] | null;
}

/** One evidence item: a signal, the points it added (0: information only), what and where. */
export type ScoreEvidence = z.output<typeof scoreEvidenceSchema>;

export type AddressType = z.output<typeof addressTypeSchema>;

/** The whole score of an address; the answers pick from it (raw `is_tor` etc. stay here). */
export interface IpScore {
  /**
   * `vpn` for any anonymiser (VPN, proxy, Tor), else `datacenter`, else `residential` (also for
   * addresses without data, e.g. special-purpose ones). `is_vpn`, `is_datacenter` and
   * `is_residential` are true exactly when `type` is respectively `vpn`, `datacenter`,
   * `residential`.
   */
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

const DEFAULT_SOURCE = 'IP intelligence';
/** Evidence text when the DNSBL step could not be done (no list answered, or it failed). */
const noDnsblDetail = (why?: string) =>
  `the DNSBL check could not be done${why ? `: ${why}` : ''}; scored without DNSBL evidence`;

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
  // The "Residential ISP" signal (a flag, weight 0) needs the type and the data to agree: never
  // for a datacenter or an anonymiser, whatever the dataset says, and not when IP intelligence
  // says the address is not an ISP line (e.g. a special-purpose address, which has no data).
  present.residential = type === 'residential' && s.residential !== false;

  const evidence: ScoreEvidence[] = [];
  const signalSource = {
    tor_exit: s.sources?.tor,
    vpn: s.sources?.vpn,
    proxy: s.sources?.proxy,
    datacenter: s.sources?.datacenter,
    mobile: s.sources?.mobile,
    residential: s.sources?.residential,
  } as Partial<Record<ScoreSignal, string>>;
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
      source: signalSource[w.signal] ?? DEFAULT_SOURCE,
    });
  }
  const answered = (options.dnsbl ?? []).filter(
    (a) => a.status === 'listed' || a.status === 'not_listed',
  );
  if (options.dnsbl === null) {
    evidence.push({
      signal: 'dnsbl_unavailable',
      weight: 0,
      detail: noDnsblDetail(),
      source: 'DNSBL',
    });
  } else if (options.dnsbl && answered.length === 0) {
    // No list answered: the same as a failed check, never "not listed anywhere".
    const silent = options.dnsbl.filter((a) => a.status !== 'skipped');
    evidence.push({
      signal: 'dnsbl_unavailable',
      weight: 0,
      detail: noDnsblDetail(
        silent.length > 0
          ? `no list answered (no usable answer from ${silent.map((a) => a.name).join(', ')})`
          : 'no list could be asked about this address',
      ),
      source: silent.length > 0 ? silent.map((a) => a.zone).join(', ') : 'DNSBL',
    });
  } else if (options.dnsbl) {
    const silent = options.dnsbl.filter((a) => a.status === 'error' || a.status === 'timeout');
    if (silent.length > 0) {
      evidence.push({
        signal: 'dnsbl_unavailable',
        weight: 0,
        detail: `no usable answer from ${silent.length} list${silent.length === 1 ? '' : 's'}: ${silent.map((a) => a.name).join(', ')}; scored on the lists that answered`,
        source: silent.map((a) => a.zone).join(', '),
      });
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
