/**
 * MX analysis: the exchanges' addresses, Null MX (RFC 7505), the implicit MX (RFC 5321 §5.1), and
 * the common mistakes: an alias (RFC 2181 §10.3), an IP literal, duplicates, no address.
 * @module
 */
import type { z } from 'zod';
import type { MxValue } from '../net/dns-types.js';
import { parseIpLiteral } from '../net/ip.js';
import { classifyAddress } from '../net/ranges.js';
import { addressesOf, mustLookup, type SectionRun, sectionAnalyser } from './dns.js';
import type { mxHostSchema, mxSchema } from './schema.js';
import {
  type EmailAuthSectionOptions,
  type Finding,
  findingList,
  passUnlessFlagged,
  statusOf,
} from './types.js';

/** Exchanges resolved at most; a domain may publish more, they are listed but not resolved. */
export const MX_RESOLVE_LIMIT = 20;

/** One MX record, its host's A/AAAA addresses and the verdict on it. */
export type MxHost = z.output<typeof mxHostSchema>;

/** The `mx` section: records by preference, Null MX (RFC 7505) or implicit MX (RFC 5321 §5.1). */
export type MxAnalysis = z.output<typeof mxSchema>;

/** Analyses `domain`'s MX records. Throws only when the MX lookup itself fails. */
export const analyseMx = sectionAnalyser(mxSection);

async function mxSection(
  domain: string,
  options: SectionRun<EmailAuthSectionOptions>,
): Promise<MxAnalysis> {
  const { lookup } = options;
  const answer = await mustLookup(options.resolver, domain, 'MX', lookup);
  const [findings, add] = findingList();
  const values = answer.records
    .map((r) => r.value as MxValue)
    .map((v) => ({
      preference: v.preference,
      exchange: v.exchange.toLowerCase().replace(/\.$/, ''),
    }))
    .sort((a, b) => a.preference - b.preference || a.exchange.localeCompare(b.exchange));

  if (values.length === 0) {
    if (answer.rcode === 'NXDOMAIN') {
      add('fail', 'mx_domain_missing', `${domain} does not exist (NXDOMAIN)`);
      return mxResult(findings);
    }
    const addresses = await addressesOf(options.resolver, domain, lookup);
    if (addresses.ok && addresses.addresses.length > 0) {
      add(
        'warn',
        'mx_implicit',
        `${domain} publishes no MX: senders deliver to its own address${addresses.addresses.length > 1 ? 'es' : ''} ${addresses.addresses.join(', ')} (implicit MX, RFC 5321 §5.1); publish an MX, or a Null MX if it takes no mail (RFC 7505)`,
      );
      return mxResult(findings, { implicit_mx: true, implicit_addresses: addresses.addresses });
    }
    add(
      'fail',
      'mx_missing',
      `${domain} has no MX and no address: it cannot receive mail, not even bounces; publish an MX, or a Null MX "0 ." if that is intended (RFC 7505)`,
    );
    return mxResult(findings);
  }

  const nullRecords = values.filter((v) => v.exchange === '');
  if (nullRecords.length > 0) {
    const records: MxHost[] = values.map((v) => ({
      ...v,
      addresses: [],
      cname: null,
      status: v.exchange === '' ? 'info' : 'fail',
      reason:
        v.exchange === ''
          ? 'Null MX: the domain accepts no mail (RFC 7505)'
          : 'published next to a Null MX',
    }));
    if (values.length > 1) {
      add(
        'fail',
        'mx_null_mixed',
        `${domain} publishes a Null MX next to other MX records; a Null MX MUST be the only one (RFC 7505 §3)`,
      );
    } else if ((nullRecords[0] as { preference: number }).preference !== 0) {
      add(
        'warn',
        'mx_null_preference',
        `the Null MX of ${domain} should have preference 0 (RFC 7505 §3)`,
      );
    } else {
      add(
        'info',
        'mx_null',
        `${domain} declares with a Null MX that it accepts no mail (RFC 7505)`,
      );
    }
    return mxResult(findings, { records, null_mx: true });
  }

  const seen = new Set<string>();
  const resolvedHosts = await Promise.all(
    values.map(async (v, index): Promise<[MxHost, Finding[]]> => {
      const [own, note] = findingList();
      const done = (
        entry: Omit<MxHost, 'status' | 'reason'>,
        status: MxHost['status'],
        reason: string,
      ): [MxHost, Finding[]] => [{ ...entry, status, reason }, own];
      const duplicate = seen.has(v.exchange);
      seen.add(v.exchange);
      const host = { ...v, addresses: [] as string[], cname: null as string | null };
      if (parseIpLiteral(v.exchange)) {
        note(
          'fail',
          'mx_ip_literal',
          `MX ${v.preference} ${v.exchange} is an IP address; an MX names a host (RFC 1035 §3.3.9, RFC 5321 §5.1)`,
        );
        return done(host, 'fail', 'an IP address, not a host name');
      }
      if (duplicate) {
        note('warn', 'mx_duplicate', `${v.exchange} is listed more than once`);
        return done(host, 'warn', 'listed more than once');
      }
      if (index >= MX_RESOLVE_LIMIT) {
        return done(host, 'info', `not resolved: only the first ${MX_RESOLVE_LIMIT} exchanges are`);
      }
      const resolved = await addressesOf(options.resolver, v.exchange, lookup);
      if (!resolved.ok) {
        note('warn', 'mx_dns_error', `MX host ${v.exchange}: ${resolved.error}`);
        return done(host, 'warn', resolved.error);
      }
      const entry = { ...host, addresses: resolved.addresses, cname: resolved.cname };
      if (resolved.addresses.length === 0) {
        note(
          'fail',
          'mx_no_address',
          `MX host ${v.exchange} has no A or AAAA record: mail to it cannot be delivered`,
        );
        return done(entry, 'fail', 'no A or AAAA record');
      }
      if (resolved.cname) {
        note(
          'warn',
          'mx_cname',
          `MX host ${v.exchange} is an alias of ${resolved.cname}; an MX must name the canonical host (RFC 2181 §10.3, RFC 5321 §5.1)`,
        );
        return done(entry, 'warn', `an alias (CNAME) of ${resolved.cname}`);
      }
      const internal = resolved.addresses.filter((a) => !classifyAddress(a).public);
      if (internal.length > 0) {
        note(
          'warn',
          'mx_private_address',
          `MX host ${v.exchange} has non-public address(es) ${internal.join(', ')}`,
        );
        return done(entry, 'warn', `non-public address(es) ${internal.join(', ')}`);
      }
      return done(entry, 'pass', `resolves to ${resolved.addresses.join(', ')}`);
    }),
  );
  const records = resolvedHosts.map(([host]) => host);
  for (const [, own] of resolvedHosts) findings.push(...own);
  if (records.every((r) => r.status === 'fail')) {
    add('fail', 'mx_unreachable', `no MX host of ${domain} can receive mail`);
  }
  passUnlessFlagged(findings, 'mx_ok', `${records.length} MX host(s), all resolvable`);
  return mxResult(findings, { records });
}

/** The section with its status from `findings`; no records, no Null or implicit MX unless set. */
function mxResult(findings: Finding[], fields: Partial<MxAnalysis> = {}): MxAnalysis {
  return {
    status: statusOf(findings),
    records: [],
    null_mx: false,
    implicit_mx: false,
    implicit_addresses: [],
    ...fields,
    findings,
  };
}
