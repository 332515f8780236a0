/**
 * DKIM key discovery. Selectors cannot be listed through DNS: the requested ones are tried, then
 * common ones; with no key, `_domainkey.<domain>` NXDOMAIN means nothing is below it (RFC 8020).
 * @module
 */
import type { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import type { DnsResolver } from '../../net/dns-types.js';
import {
  type LookupOptions,
  type SectionRun,
  sectionAnalyser,
  tryLookup,
  txtTexts,
} from '../dns.js';
import type { dkimSchema, dkimSelectorSchema } from '../schema.js';
import { type EmailAuthSectionOptions, finding, findingList, statusOf } from '../types.js';
import { type DkimKeyRecord, looksLikeDkimKey, parseDkimKeyRecord } from './key-record.js';

/**
 * Selectors of widespread providers: Google Workspace (`google`), Microsoft 365
 * (`selector1`, `selector2`), Mailchimp/Mandrill (`k1`–`k3`, `mandrill`), Amazon SES and many
 * hosts (`default`, `s1`, `s2`, `dkim`, `mail`, `smtp`), Fastmail (`fm1`–`fm3`), Zoho (`zoho`).
 */
export const COMMON_DKIM_SELECTORS: readonly string[] = [
  'google',
  'selector1',
  'selector2',
  'k1',
  'k2',
  'k3',
  'default',
  's1',
  's2',
  'dkim',
  'mail',
  'smtp',
  'mandrill',
  'fm1',
  'fm2',
  'fm3',
  'zoho',
];

/** Requested selectors accepted at most per call. */
export const MAX_REQUESTED_SELECTORS = 10;

/** RFC 8301 §3.2: signers MUST use RSA keys of at least 1024 bits and SHOULD use 2048. */
export const DKIM_MIN_RSA_BITS = 1024;
export const DKIM_RECOMMENDED_RSA_BITS = 2048;

/** One selector tried (`requested` by the caller or a `common` one) and its key. */
export type DkimSelectorResult = z.output<typeof dkimSelectorSchema>;

/** The `dkim` section: every selector tried and the keys found (RFC 6376, RFC 8301). */
export type DkimAnalysis = z.output<typeof dkimSchema>;

export interface AnalyseDkimOptions extends EmailAuthSectionOptions {
  /** Selectors to try first (`dkim_selector`, a comma list or an array). */
  selectors?: string | readonly string[];
}

/** Validates the requested selectors: DNS labels joined by dots, at most 10. */
export function parseSelectors(input: string | readonly string[] | undefined): string[] {
  const list = (typeof input === 'string' ? input.split(',') : [...(input ?? [])])
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (list.length > MAX_REQUESTED_SELECTORS) {
    throw new InvalidInputError(
      `"dkim_selector" lists ${list.length} selectors; at most ${MAX_REQUESTED_SELECTORS} are accepted`,
      'dkim_selector',
    );
  }
  for (const selector of list) {
    const ok =
      selector.length <= 200 &&
      selector.split('.').every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l));
    if (!ok) {
      throw new InvalidInputError(
        `"dkim_selector" has an invalid selector "${selector}": use letters, digits, "-", "_" and dots (RFC 6376 §3.1)`,
        'dkim_selector',
      );
    }
  }
  return [...new Set(list)];
}

/**
 * Looks for `domain`'s DKIM keys: the requested `selectors` first, then the common ones. DNS
 * failures become findings; invalid selectors are an `InvalidInputError`.
 */
export const analyseDkim = sectionAnalyser(dkimSection);

async function dkimSection(
  domain: string,
  options: SectionRun<AnalyseDkimOptions>,
): Promise<DkimAnalysis> {
  const { lookup } = options;
  const requested = parseSelectors(options.selectors);
  const common = COMMON_DKIM_SELECTORS.filter((s) => !requested.includes(s));
  const all = [
    ...requested.map((s) => ({ selector: s, source: 'requested' as const })),
    ...common.map((s) => ({ selector: s, source: 'common' as const })),
  ];
  const results = await Promise.all(
    all.map(({ selector, source }) => probe(options.resolver, domain, selector, source, lookup)),
  );
  const shown = results.filter((r) => r.source === 'requested' || r.found);
  const [findings, add] = findingList();
  for (const r of shown) {
    if (r.status !== 'pass') {
      add(r.status, r.found ? 'dkim_key' : 'dkim_selector_missing', `${r.name}: ${r.reason}`);
    }
  }
  const failed = results.filter(
    (r) => r.source === 'common' && r.reason.startsWith('lookup failed'),
  );
  if (failed.length > 0) {
    add(
      'info',
      'dkim_lookup_failed',
      `the lookup failed for ${failed.length} common selector(s): ${failed.map((r) => r.selector).join(', ')}`,
    );
  }
  const good = shown.filter((r) => r.found && r.status === 'pass');
  let domainkeyExists: boolean | null = null;
  if (!shown.some((r) => r.found)) {
    const probeName = `_domainkey.${domain}`;
    const answer = await tryLookup(options.resolver, probeName, 'TXT', lookup);
    domainkeyExists = answer.ok ? answer.rcode === 'NOERROR' : null;
    findings.push(
      domainkeyExists
        ? finding(
            'warn',
            'dkim_unknown_selector',
            `${probeName} exists, so keys are published at selectors not tried here; pass dkim_selector to check them`,
          )
        : finding(
            'warn',
            'dkim_not_found',
            `no DKIM key at the ${all.length} selectors tried${domainkeyExists === false ? `, and ${probeName} does not exist (NXDOMAIN, RFC 8020)` : ''}; pass dkim_selector if the domain signs with another one`,
          ),
    );
  } else if (good.length > 0) {
    add('pass', 'dkim_ok', `DKIM key(s) found at ${good.map((r) => r.selector).join(', ')}`);
  }
  return {
    status: statusOf(findings),
    selectors_checked: all.map((s) => s.selector),
    selectors: shown,
    domainkey_exists: domainkeyExists,
    findings,
  };
}

async function probe(
  resolver: DnsResolver,
  domain: string,
  selector: string,
  source: 'requested' | 'common',
  lookup: LookupOptions,
): Promise<DkimSelectorResult> {
  const name = `${selector}._domainkey.${domain}`;
  const base: DkimSelectorResult = {
    selector,
    name,
    source,
    found: false,
    record: null,
    key_type: null,
    key_bits: null,
    revoked: false,
    testing: false,
    status: 'fail',
    reason: 'no DKIM key record',
  };
  const answer = await tryLookup(resolver, name, 'TXT', lookup);
  if (!answer.ok) {
    return {
      ...base,
      status: source === 'requested' ? 'warn' : 'info',
      reason: `lookup failed (${answer.rcode})`,
    };
  }
  const texts = txtTexts(answer.records).filter(looksLikeDkimKey);
  if (texts.length === 0) {
    return {
      ...base,
      reason:
        answer.rcode === 'NXDOMAIN'
          ? `no DKIM key: ${name} does not exist`
          : 'no DKIM key record at this name',
    };
  }
  const record = texts[0] as string;
  const key = parseDkimKeyRecord(record);
  const found = {
    ...base,
    found: true,
    record,
    key_type: key.key_type,
    key_bits: key.key_bits,
    revoked: key.revoked,
    testing: key.flags.includes('y'),
  };
  const [status, reason] = verdict(key, texts.length);
  return { ...found, status, reason };
}

/** The verdict on the key found at one selector (RFC 6376 §3.6.1, RFC 8301). */
function verdict(key: DkimKeyRecord, records: number): [DkimSelectorResult['status'], string] {
  if (records > 1) return ['fail', `${records} key records at one name; verifiers may pick either`];
  if (!key.valid) return ['fail', key.errors.join('; ')];
  if (key.revoked) return ['info', 'the key is revoked (empty p=, RFC 6376 §3.6.1)'];
  if (key.key_bits === null) return ['fail', key.errors.join('; ') || 'unreadable key'];
  const rsa = key.key_type === 'rsa';
  if (rsa && key.key_bits < DKIM_MIN_RSA_BITS) {
    return [
      'fail',
      `RSA ${key.key_bits}-bit key: verifiers reject keys under ${DKIM_MIN_RSA_BITS} bits (RFC 8301 §3.2)`,
    ];
  }
  if (key.hash_algorithms.length > 0 && !key.hash_algorithms.includes('sha256')) {
    return [
      'warn',
      `h=${key.hash_algorithms.join(':')}: only SHA-256 is acceptable for signing (RFC 8301 §3.1)`,
    ];
  }
  if (key.flags.includes('y')) {
    return [
      'warn',
      't=y: the domain is testing DKIM; verifiers may ignore failures (RFC 6376 §3.6.1)',
    ];
  }
  if (rsa && key.key_bits < DKIM_RECOMMENDED_RSA_BITS) {
    return [
      'warn',
      `RSA ${key.key_bits}-bit key: signers SHOULD use ${DKIM_RECOMMENDED_RSA_BITS} bits (RFC 8301 §3.2)`,
    ];
  }
  return ['pass', `${key.key_type.toUpperCase()} ${key.key_bits}-bit key`];
}
