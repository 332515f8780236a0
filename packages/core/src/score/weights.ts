/**
 * The cleanliness score table, the only place with numbers (the docs render it with
 * `describeScoreTable()`). Why: anonymisers hide the client (Tor exits most), datacenters hold
 * servers rather than people, a DNSBL listing is evidence of abuse, and mobile carriers share one
 * CGNAT address among many subscribers (RFC 6598 §1).
 * @module
 */
import type { z } from 'zod';
import type { gradeLabelSchema, gradeSchema } from '../caller/schema.js';
import type { ScoreEvidence } from './score-ip.js';

/** Signals that can move the score: the evidence signals but the DNSBL step's failure. */
export type ScoreSignal = Exclude<ScoreEvidence['signal'], 'dnsbl_unavailable'>;

export interface ScoreWeight {
  signal: ScoreSignal;
  /** Points added (negative) when the signal is present; per list for `dnsbl_listed`. */
  weight: number;
  /** Lowest total this signal can contribute (the DNSBL cap). */
  cap?: number;
  /** What the signal means, for the evidence list and the docs. */
  meaning: string;
}

/** Score of an address with no signal at all. */
export const BASE_SCORE = 100;

export const SCORE_WEIGHTS: readonly ScoreWeight[] = [
  { signal: 'tor_exit', weight: -50, meaning: 'Tor exit node' },
  { signal: 'vpn', weight: -30, meaning: 'VPN provider' },
  { signal: 'proxy', weight: -30, meaning: 'open or anonymising proxy' },
  { signal: 'datacenter', weight: -25, meaning: 'datacenter or hosting network' },
  {
    signal: 'dnsbl_listed',
    weight: -15,
    cap: -45,
    meaning: 'listed on a spam/abuse DNS blocklist (per list)',
  },
  { signal: 'mobile', weight: -5, meaning: 'mobile carrier network (shared CGNAT addresses)' },
  { signal: 'residential', weight: 0, meaning: 'residential ISP' },
];

export type Grade = z.output<typeof gradeSchema>;
export type GradeLabel = z.output<typeof gradeLabelSchema>;

/** CONTRACT §6 / issue 4: A ≥ 80, B ≥ 60, C ≥ 40, D below; one fixed label per grade. */
export const GRADES: readonly { grade: Grade; min: number; label: GradeLabel }[] = [
  { grade: 'A', min: 80, label: 'Clean' },
  { grade: 'B', min: 60, label: 'Mostly clean' },
  { grade: 'C', min: 40, label: 'Suspicious' },
  { grade: 'D', min: 0, label: 'High risk' },
];

/** The fixed flag texts (SPEC 2.3 `flags`). */
export const FLAG_TEXT = {
  tor: 'Tor exit node',
  /** Followed by the count: `Listed on 2 spam blacklists`. */
  blacklisted: (count: number) => `Listed on ${count} spam blacklist${count === 1 ? '' : 's'}`,
  mobile: 'Mobile network',
  residential: 'Residential ISP',
  /** A privacy relay's egress (iCloud Private Relay): scored as a proxy, named apart. */
  relay: 'Privacy relay',
} as const;

/** The table as text, for the OpenAPI description and the docs. */
export function describeScoreTable(): string {
  const rows = SCORE_WEIGHTS.map(
    (w) =>
      `${w.signal} ${w.weight}${w.cap !== undefined ? ` (capped at ${w.cap})` : ''}: ${w.meaning}`,
  );
  const grades = GRADES.map((g) => `${g.grade} ≥ ${g.min} "${g.label}"`);
  return (
    `score = clamp(${BASE_SCORE} + Σ weights of present signals, 0, 100). ` +
    `Weights: ${rows.join('; ')}. Grades: ${grades.join(', ')}.`
  );
}
