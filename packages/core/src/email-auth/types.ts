/**
 * Result pieces shared by every email-authentication section. Field names are snake_case because
 * these objects are the `data` of `GET /api/email-auth` as they are.
 * @module
 */
import type { z } from 'zod';
import type { DnsResolver } from '../net/dns-types.js';
import type { BaseOptions } from '../types.js';
import type { findingSchema, sectionStatusSchema } from './schema.js';

/** One check of a section: its severity, a stable `code` (`spf_lookup_limit`) and a sentence. */
export type Finding = z.output<typeof findingSchema>;

/**
 * How one check came out:
 * - `pass`: as it should be;
 * - `info`: worth knowing, no action needed;
 * - `warn`: works, but weaker than recommended;
 * - `fail`: broken, missing where required, or unsafe.
 */
export type FindingSeverity = Finding['severity'];

/**
 * Outcome of one section: `none` means the (optional) mechanism is not published at all, which
 * is reported separately from `fail` (published but broken, or a required one missing).
 */
export type SectionStatus = z.output<typeof sectionStatusSchema>;

/** Options every email-auth function accepts. */
export interface EmailAuthDnsOptions extends BaseOptions {
  /** The DNS seam. @default the library's shared resolver (`getDefaultResolver()`) */
  resolver?: DnsResolver;
}

/** Budget of `checkEmailAuth` and of each section analyser called on its own. */
export const EMAIL_AUTH_DEFAULT_TIMEOUT_MS = 20_000;

/** Options of a section analyser (`analyseMx`, `analyseSpf`, …). */
export interface EmailAuthSectionOptions extends EmailAuthDnsOptions {
  /** Budget of each DNS query in ms. @default the resolver's own */
  dnsTimeout?: number;
  /** Budget of the whole section in ms (`false`: none). @default 20000 */
  timeout?: number | false;
}

export function finding(severity: FindingSeverity, code: string, message: string): Finding {
  return { severity, code, message };
}

/** The worst status that a list of findings implies (`info` counts as pass). */
export function statusOf(findings: readonly Finding[]): Exclude<SectionStatus, 'none'> {
  if (findings.some((f) => f.severity === 'fail')) return 'fail';
  if (findings.some((f) => f.severity === 'warn')) return 'warn';
  return 'pass';
}

/** Puts a `pass` finding first when none of `findings` is a warn or fail. */
export function passUnlessFlagged(findings: Finding[], code: string, message: string): void {
  if (!findings.some((f) => f.severity === 'warn' || f.severity === 'fail')) {
    findings.unshift(finding('pass', code, message));
  }
}

export type AddFinding = (severity: FindingSeverity, code: string, message: string) => void;

/** An empty findings list and the function that adds to it. */
export function findingList(): [Finding[], AddFinding] {
  const findings: Finding[] = [];
  return [findings, (severity, code, message) => findings.push(finding(severity, code, message))];
}
