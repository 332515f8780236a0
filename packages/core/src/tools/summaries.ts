/**
 * One or two lines per tool answer, for a person reading an agent's transcript (the MCP text
 * content); the full answer travels as structured data beside it.
 * @module
 */
import type {
  AsnData,
  BlacklistData,
  BreachData,
  BulkData,
  DnsLookupV1Data,
  DnssecData,
  EmailAuthData,
  LookupData,
  PortScanData,
  ReverseDnsData,
  SecurityHeadersData,
  SiteCheckData,
  SpfEvaluationData,
  TlsData,
  WhoisData,
} from '../schemas/index.js';

const place = (parts: readonly string[]) => parts.filter(Boolean).join(', ') || 'unknown location';
const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : 'unknown');

function lookup(data: LookupData): string {
  if (data.bogon) return `${data.ip} is not a public address (bogon): no location or network.`;
  const { city, region, country } = data.location;
  const network = data.network.asn
    ? `AS${data.network.asn} ${data.network.isp}`
    : 'unknown network';
  const flags = (['hosting', 'proxy', 'mobile'] as const).filter((flag) => data.privacy[flag]);
  return `${data.ip}: ${place([city, region, country])}; ${network}; ${flags.length ? `flags: ${flags.join(', ')}` : 'no hosting, proxy or mobile flag'}.`;
}

export const summaries: Record<string, (data: never) => string> = {
  lookup_ip: lookup,
  bulk_lookup: (data: BulkData) =>
    `${data.total} address${data.total === 1 ? '' : 'es'} looked up${data.errors.length ? `, ${data.errors.length} invalid entr${data.errors.length === 1 ? 'y' : 'ies'}` : ''}: ${data.results
      .slice(0, 5)
      .map((r) => `${r.ip} ${r.country || '-'} AS${r.asn ?? '-'}`)
      .join('; ')}${data.results.length > 5 ? '; …' : ''}`,
  search_asn: (data: AsnData) => {
    const shown = JSON.stringify(data);
    return `AS search (${data.type}): ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}`;
  },
  dns_lookup: (data: DnsLookupV1Data) =>
    data.records.length === 0
      ? `${data.domain} ${data.type}: no records (${data.rcode}).`
      : `${data.domain} ${data.type} (${data.rcode}): ${data.records.map((r) => r.data).join(' | ')}`,
  reverse_dns: (data: ReverseDnsData) =>
    data.hostnames.length === 0
      ? `${data.ip} has no PTR record.`
      : `${data.ip} → ${data.hostnames.join(', ')} (forward-confirmed: ${data.fcrdns ? 'yes' : 'no'}).`,
  check_blacklist: (data: BlacklistData) =>
    `${data.ip}: ${data.status} — listed on ${data.listed_count} of ${data.total_checked} lists checked${data.unavailable_count ? `, ${data.unavailable_count} unavailable` : ''}${
      data.listed_count
        ? ` (${data.results
            .filter((r) => r.listed)
            .map((r) => r.name)
            .join(', ')})`
        : ''
    }.`,
  whois: (data: WhoisData) =>
    `${data.domain}: registrar ${data.registrar || 'unknown'}, created ${day(data.creation_date)}, expires ${day(data.expiration_date)}, name servers ${data.name_servers.join(', ') || 'none'}.`,
  check_site: (data: SiteCheckData) =>
    data.is_up
      ? `${data.url} is up: HTTP ${data.status_code} in ${data.response_time_ms} ms${data.note ? ` (${data.note})` : ''}.`
      : `${data.url} is down: ${data.note ?? 'no answer'}.`,
  grade_security_headers: (data: SecurityHeadersData) =>
    `${data.url}: grade ${data.grade} (score ${data.score}); ${data.tests_passed} of ${data.tests_quantity} tests passed${
      data.headers.some((h) => !h.pass)
        ? `; failing: ${data.headers
            .filter((h) => !h.pass)
            .map((h) => h.test)
            .join(', ')}`
        : ''
    }.`,
  scan_ports: (data: PortScanData) =>
    `${data.host} (${data.ip}): ${data.ports_scanned} ports scanned, ${data.open_count} open${data.open_ports.length ? ` (${data.open_ports.join(', ')})` : ''}, ${data.closed_count} closed, ${data.filtered_count} filtered.`,
  check_tls: (data: TlsData) =>
    `${data.host}:${data.port} (${data.ip}): grade ${data.grade}${data.grade !== data.grade_ignoring_trust ? ` (${data.grade_ignoring_trust} if trusted)` : ''}; ${
      data.protocols
        .filter((p) => p.accepted)
        .map((p) => p.protocol)
        .join(', ') || 'no protocol'
    }; certificate ${data.chain.expired ? 'EXPIRED' : `${data.certificates[0]?.days_left ?? '?'} days left`}${data.caps.length ? `; ${data.caps.map((c) => c.reason).join('; ')}` : ''}.`,
  validate_dnssec: (data: DnssecData) =>
    `${data.name} ${data.type}: DNSSEC ${data.status.toUpperCase()}; ${data.reason}${data.chain.length ? ` (chain: ${data.chain.map((l) => `${l.zone} ${l.status}`).join(' → ')})` : ''}.`,
  check_email_auth: (data: EmailAuthData) =>
    `${data.domain}: email authentication grade ${data.summary.grade} (${data.summary.score}/100); SPF ${data.spf.status}, DMARC ${data.dmarc.status}, DKIM ${data.dkim.status}, MTA-STS ${data.mta_sts.status}.`,
  evaluate_spf: (data: SpfEvaluationData) =>
    `SPF ${data.result} for ${data.ip} sending as ${data.sender} (domain ${data.domain}): ${data.reason}.`,
  check_breach: (data: BreachData) =>
    `${data.email}: found in ${data.breaches} breach${data.breaches === 1 ? '' : 'es'}; risk ${data.risk.score}/100.`,
};
