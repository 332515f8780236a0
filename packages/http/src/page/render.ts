/**
 * The page at `/`: one self-contained HTML document for people. The visitor's own answer is
 * rendered on the server, so it shows without JavaScript; the forms below are enhanced by
 * `/assets/app.js` (same origin, no inline script, so the page's CSP can forbid inline code).
 * Nothing is loaded from anywhere else: no CDN, fonts, tiles or analytics.
 * @module
 */
import type { CallerIpV1Data, ScoreData } from '@netdiag/core';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

const or = (value: string | number | null | undefined, fallback = 'unknown') =>
  value === '' || value === null || value === undefined ? fallback : String(value);

export interface PageInput {
  caller: CallerIpV1Data;
  score: ScoreData;
  /** The version shown in the footer. */
  version: string;
}

/** Each form: its API path, fields, and a line on what it answers. */
interface FormSpec {
  id: string;
  title: string;
  what: string;
  method: 'get' | 'post';
  action: string;
  fields: {
    name: string;
    label: string;
    placeholder: string;
    required?: boolean;
    type?: 'text' | 'textarea' | 'select' | 'email';
    options?: string[];
    value?: string;
  }[];
}

function forms(callerIp: string): FormSpec[] {
  return [
    {
      id: 'lookup',
      title: 'IP lookup',
      what: 'Location, network and privacy flags of any address.',
      method: 'get',
      action: '/api/lookup',
      fields: [{ name: 'ip', label: 'IP address', placeholder: '8.8.8.8', required: true }],
    },
    {
      id: 'bulk',
      title: 'Bulk lookup',
      what: 'Up to 50 addresses at once, one per line.',
      method: 'post',
      action: '/api/bulk',
      fields: [
        {
          name: 'ips',
          label: 'Addresses',
          placeholder: '8.8.8.8\n1.1.1.1',
          required: true,
          type: 'textarea',
        },
      ],
    },
    {
      id: 'asn',
      title: 'ASN search',
      what: 'An IP address, an AS number such as AS15169, or an organisation name.',
      method: 'get',
      action: '/api/asn',
      fields: [{ name: 'q', label: 'Query', placeholder: 'AS15169', required: true }],
    },
    {
      id: 'dns',
      title: 'DNS lookup',
      what: 'Records of one type, as dig +short prints them.',
      method: 'get',
      action: '/api/dns',
      fields: [
        { name: 'domain', label: 'Domain', placeholder: 'example.com', required: true },
        {
          name: 'type',
          label: 'Type',
          placeholder: '',
          type: 'select',
          options: ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'CAA'],
        },
      ],
    },
    {
      id: 'rdns',
      title: 'Reverse DNS',
      what: 'PTR names of an address, and whether they point back to it.',
      method: 'get',
      action: '/api/rdns',
      fields: [{ name: 'ip', label: 'IP address', placeholder: '8.8.8.8', required: true }],
    },
    {
      id: 'blacklist',
      title: 'Blocklists',
      what: 'Is the address on 12 DNS blocklists? One verdict per list.',
      method: 'get',
      action: '/api/blacklist',
      fields: [{ name: 'ip', label: 'IP address', placeholder: callerIp, required: true }],
    },
    {
      id: 'whois',
      title: 'WHOIS',
      what: 'Registrar, dates and name servers of a domain (RDAP, then WHOIS).',
      method: 'get',
      action: '/api/whois',
      fields: [{ name: 'domain', label: 'Domain', placeholder: 'example.com', required: true }],
    },
    {
      id: 'down',
      title: 'Is it up?',
      what: 'Fetches a public site and says whether it answers.',
      method: 'get',
      action: '/api/down',
      fields: [{ name: 'url', label: 'URL', placeholder: 'https://example.com', required: true }],
    },
    {
      id: 'headers',
      title: 'Security headers',
      what: "Grades a site's security headers the way the MDN Observatory does.",
      method: 'get',
      action: '/api/security-headers',
      fields: [{ name: 'url', label: 'URL', placeholder: 'https://example.com', required: true }],
    },
    {
      id: 'ports',
      title: 'Port scan',
      what: 'TCP connect scan of a public host; empty host = your own address.',
      method: 'get',
      action: '/api/ports',
      fields: [
        { name: 'host', label: 'Host', placeholder: callerIp },
        { name: 'ports', label: 'Ports (empty = common ports)', placeholder: '22,80,443' },
      ],
    },
    {
      id: 'email',
      title: 'Email authentication',
      what: 'MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT and BIMI, graded.',
      method: 'get',
      action: '/api/email-auth',
      fields: [
        { name: 'domain', label: 'Domain', placeholder: 'example.com', required: true },
        { name: 'ip', label: 'Sending IP (optional)', placeholder: '192.0.2.10' },
      ],
    },
    {
      id: 'breach',
      title: 'Breach check',
      what: 'Is an email address in known data breaches? The address is never logged.',
      method: 'get',
      action: '/api/breach',
      fields: [
        {
          name: 'email',
          label: 'Email address',
          placeholder: 'you@example.com',
          required: true,
          type: 'email',
        },
      ],
    },
  ];
}

function field(form: FormSpec, spec: FormSpec['fields'][number]): string {
  const id = `${form.id}-${spec.name}`;
  const common = `id="${id}" name="${escapeHtml(spec.name)}"${spec.required ? ' required' : ''}`;
  const label = `<label for="${id}">${escapeHtml(spec.label)}</label>`;
  if (spec.type === 'textarea') {
    return `${label}<textarea ${common} rows="3" placeholder="${escapeHtml(spec.placeholder)}"></textarea>`;
  }
  if (spec.type === 'select') {
    const options = (spec.options ?? []).map((o) => `<option>${escapeHtml(o)}</option>`).join('');
    return `${label}<select ${common}>${options}</select>`;
  }
  const type = spec.type === 'email' ? 'email' : 'text';
  return `${label}<input ${common} type="${type}" placeholder="${escapeHtml(spec.placeholder)}" autocomplete="off" spellcheck="false">`;
}

function renderForm(form: FormSpec): string {
  return `<section class="tool" id="${form.id}" aria-labelledby="${form.id}-title">
<h3 id="${form.id}-title">${escapeHtml(form.title)}</h3>
<p class="what">${escapeHtml(form.what)}</p>
<form method="${form.method === 'post' ? 'post' : 'get'}" action="${escapeHtml(form.action)}" data-api="${escapeHtml(form.action)}" data-method="${form.method}">
${form.fields.map((f) => `<div class="field">${field(form, f)}</div>`).join('\n')}
<button type="submit">Check</button>
</form>
<div class="answer" aria-live="polite"></div>
</section>`;
}

const GRADE_CLASS: Record<string, string> = { A: 'good', B: 'fair', C: 'poor', D: 'bad' };

function callerSection({ caller, score }: PageInput): string {
  const { location, network, privacy } = caller;
  const place = [location.city, location.region, location.country_name || location.country]
    .filter(Boolean)
    .join(', ');
  const evidence = score.privacy.evidence
    .map(
      (item) =>
        `<li><span class="weight">${item.weight > 0 ? '+' : ''}${item.weight}</span> ${escapeHtml(item.detail)} <span class="source">${escapeHtml(item.source)}</span></li>`,
    )
    .join('');
  const grade = escapeHtml(privacy.grade);
  return `<section class="you" aria-labelledby="you-title">
<h2 id="you-title">Your address</h2>
<p class="ip"><code id="caller-ip">${escapeHtml(caller.ip)}</code>${caller.bogon ? ' <span class="note">(not a public address)</span>' : ''}</p>
<dl class="facts">
<dt>Location</dt><dd>${escapeHtml(or(place))}</dd>
<dt>Network</dt><dd>${network.asn ? `AS${escapeHtml(network.asn)} ` : ''}${escapeHtml(or(network.isp))}</dd>
<dt>Connection</dt><dd>${escapeHtml(or(network.connection_type))}${network.tls_version ? `, ${escapeHtml(network.tls_version)}` : ''}</dd>
<dt>Privacy type</dt><dd>${escapeHtml(privacy.type)}</dd>
<dt>Score</dt><dd><span class="badge ${GRADE_CLASS[privacy.grade] ?? ''}" title="grade">${grade}</span> ${escapeHtml(privacy.score)}/100 — ${escapeHtml(privacy.label)}</dd>
</dl>
<h3>Why this score</h3>
${evidence ? `<ul class="evidence">${evidence}</ul>` : '<p>Nothing lowered the score.</p>'}
<p class="plain">From a terminal: <code>curl ${'{{HOST}}'}/</code> prints just your address; <code>/country</code>, <code>/city</code>, <code>/asn</code> and <code>/ip</code> print one fact each.</p>
</section>`;
}

/** The whole page. `host` is shown in the curl examples (escaped). */
export function renderPage(input: PageInput, host: string): string {
  const body = callerSection(input).replace('{{HOST}}', escapeHtml(host));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>netdiag — your IP, DNS and network diagnostics</title>
<meta name="description" content="Your public IP address and free network diagnostics: IP lookup, DNS, blocklists, WHOIS, site checks, security headers, port scan, email authentication, breach check.">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#tools">Skip to the tools</a>
<header><h1>netdiag</h1><p>Public IP, DNS and network diagnostics. Free, no account, no tracking.</p></header>
<main>
${body}
<section aria-labelledby="tools-title" id="tools">
<h2 id="tools-title">Tools</h2>
<p class="limits" id="limits">Each tool calls the JSON API; 60 requests a minute per address (20 for port scans and header grades).</p>
<div class="grid">
${forms(input.caller.ip).map(renderForm).join('\n')}
</div>
</section>
</main>
<footer><p>netdiag ${escapeHtml(input.version)} · <a href="/docs">API reference</a> · <a href="/api/openapi.json">OpenAPI</a> · IP geolocation by <a href="https://db-ip.com">DB-IP</a> (CC BY 4.0)</p></footer>
</body>
</html>
`;
}
