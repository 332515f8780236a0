/**
 * "One versioned TXT record at a fixed name": MTA-STS (RFC 8461 §3.1), TLS-RPT (RFC 8460 §3) and
 * BIMI. Anything but exactly one record means "not implemented" to senders.
 * @module
 */
import type { DnsResolver } from '../net/dns-types.js';
import { describeFailure, type LookupOptions, tryLookup, txtTexts } from './dns.js';
import { parseTagList } from './tag-list.js';
import { type Finding, finding } from './types.js';

export type TxtPolicyLookup =
  | { kind: 'absent'; name: string }
  | { kind: 'error'; name: string; finding: Finding }
  | { kind: 'multiple'; name: string; finding: Finding }
  | { kind: 'found'; name: string; record: string; tags: Map<string, string>; malformed: string[] };

/** The record whose first tag is `v=<version>` (RFC 8461 §3.1, RFC 8460 §3, BIMI §4.2). */
export async function lookupTxtPolicy(
  { resolver, lookup }: { resolver: DnsResolver; lookup: LookupOptions },
  name: string,
  version: string,
  label: string,
  rule: string,
): Promise<TxtPolicyLookup> {
  const answer = await tryLookup(resolver, name, 'TXT', lookup);
  if (!answer.ok) {
    return {
      kind: 'error',
      name,
      finding: finding('warn', `${label}_dns_error`, `${describeFailure(name, 'TXT', answer)}`),
    };
  }
  const pattern = new RegExp(`^v\\s*=\\s*${version}\\s*(;|$)`);
  const records = txtTexts(answer.records).filter((t) => pattern.test(t));
  if (records.length === 0) return { kind: 'absent', name };
  if (records.length > 1) {
    return {
      kind: 'multiple',
      name,
      finding: finding(
        'fail',
        `${label}_multiple`,
        `${name} holds ${records.length} "v=${version}" records; with more than one, senders treat the domain as not using it (${rule})`,
      ),
    };
  }
  const record = records[0] as string;
  const list = parseTagList(record);
  const tags = new Map<string, string>();
  for (const entry of list.entries) if (!tags.has(entry.name)) tags.set(entry.name, entry.value);
  return { kind: 'found', name, record, tags, malformed: list.malformed };
}
