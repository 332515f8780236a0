// netdiag's page: every form calls the JSON API on this origin and shows the answer for people:
// its verdict first (grade, listed or clean, up or down, the record set), then tables at the
// page's width, then the raw JSON and the equivalent curl command. No framework, no build step,
// no third-party code; all text goes in through textContent, never as HTML.

(() => {
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'class') node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  const number = (n) => Number(n).toLocaleString('en');
  const count = (n, one, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;
  const day = (iso) => (iso ? String(iso).slice(0, 10) : 'unknown');
  const label = (key) => key.replace(/_/g, ' ');
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const isRows = (v) => Array.isArray(v) && v.length > 0 && v.every(isObject);
  const hasRows = (v) => isRows(v) || (isObject(v) && Object.values(v).some(hasRows));

  // Codes of the record types GET /api/dns answers with (IANA "Resource Record (RR) TYPEs");
  // any other code is written TYPE<n> (RFC 3597 §5).
  const TYPE_NAMES = {
    1: 'A',
    2: 'NS',
    5: 'CNAME',
    6: 'SOA',
    15: 'MX',
    16: 'TXT',
    28: 'AAAA',
    257: 'CAA',
  };
  const typeName = (code) => TYPE_NAMES[code] || `TYPE${code}`;

  const GRADE_CLASS = { A: 'good', B: 'fair', C: 'poor', D: 'bad', F: 'bad' };
  const gradeClass = (grade) => GRADE_CLASS[String(grade).charAt(0)] || '';
  const VERDICT_CLASS = {
    pass: 'good',
    info: 'fair',
    warn: 'poor',
    fail: 'bad',
    none: 'fair',
    LISTED: 'bad',
    CLEAN: 'good',
    listed: 'bad',
    not_listed: 'good',
    error: 'poor',
    timeout: 'poor',
    skipped: 'fair',
    open: 'bad',
    closed: 'good',
    filtered: 'fair',
    high: 'bad',
    medium: 'poor',
    low: 'fair',
  };
  const BADGE_KEYS = new Set(['grade', 'status', 'state', 'result', 'severity', 'risk_level']);

  const badge = (text, cls) => el('span', { class: `badge ${cls || ''}` }, text);
  const muted = (text) => el('span', { class: 'muted' }, text);
  // A good verdict in a long list: plain words, so that the bad ones stand out.
  const quiet = (text) => el('span', { class: 'yes' }, text);

  /** The answer's first line: a badge, what it means in words, and a line of detail. */
  const verdict = (cls, mark, headline, detail) =>
    el(
      'div',
      { class: `verdict ${cls}` },
      badge(mark, cls),
      el('div', {}, el('strong', {}, headline), detail ? el('p', {}, detail) : null),
    );

  // Long lists (an AS's prefixes, every SPF step) show their first rows; the rest is in Raw JSON.
  const MAX_ROWS = 15;
  const more = (n) => el('p', { class: 'muted' }, `… and ${n} more (see Raw JSON)`);

  function cell(key, value) {
    if (value === null || value === undefined || value === '') return muted('—');
    if (typeof value === 'boolean')
      return el('span', { class: value ? 'yes' : 'no' }, value ? 'yes' : 'no');
    if (BADGE_KEYS.has(key) && typeof value === 'string') {
      return badge(label(value), key === 'grade' ? gradeClass(value) : VERDICT_CLASS[value]);
    }
    if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
      if (value.length === 0) return muted('none');
      const shown = value.slice(0, MAX_ROWS).join(', ');
      return value.length > MAX_ROWS ? `${shown}, … and ${value.length - MAX_ROWS} more` : shown;
    }
    if (isRows(value)) return table(value);
    if (isObject(value)) return render(value);
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  /**
   * Rows as a table. `columns` is [key, heading, show?] (default: every key of the rows); each
   * cell carries its heading, which a phone shows beside the value (app.css).
   */
  function table(all, columns) {
    const rows = all.slice(0, MAX_ROWS);
    const keys = [];
    for (const row of rows)
      for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    const cols = columns || keys.map((key) => [key, label(key)]);
    const head = el('tr', {}, ...cols.map(([, name]) => el('th', { scope: 'col' }, name)));
    const body = rows.map((row) =>
      el(
        'tr',
        {},
        ...cols.map(([key, name, show]) =>
          el(
            'td',
            // A value longer than a word may break anywhere (app.css).
            { 'data-label': name, class: String(row[key] ?? '').length > 20 ? 'long' : '' },
            show ? show(row) : cell(key, row[key]),
          ),
        ),
      ),
    );
    return el(
      'div',
      {},
      // More columns than fit whole words beside each other on a tablet: every cell may break.
      el(
        'table',
        cols.length > 8 ? { class: 'many' } : {},
        el('thead', {}, head),
        el('tbody', {}, ...body),
      ),
      all.length > MAX_ROWS ? more(all.length - MAX_ROWS) : null,
    );
  }

  const SEVERITY_ORDER = ['fail', 'warn', 'info', 'pass'];

  /** Findings by severity, worst first (email authentication). */
  function findings(list) {
    const rank = (f) => SEVERITY_ORDER.indexOf(f.severity);
    return el(
      'ul',
      { class: 'findings' },
      ...[...list]
        .sort((a, b) => rank(a) - rank(b))
        .map((f) =>
          el(
            'li',
            {},
            badge(f.severity, VERDICT_CLASS[f.severity]),
            ' ',
            f.message || f.code || '',
          ),
        ),
    );
  }

  /**
   * An object as people read it: its plain facts in a list, then each group of facts and each
   * list of rows under its own heading (groups side by side where the page is wide enough).
   */
  function render(value) {
    const dl = el('dl', { class: 'facts' });
    const parts = [];
    for (const [key, v] of Object.entries(value)) {
      if (key === 'findings' && isRows(v) && v.every((f) => 'severity' in f)) {
        parts.push(section(key, findings(v), 'wide'));
      } else if (isRows(v)) {
        parts.push(section(label(key), table(v), 'wide'));
      } else if (isObject(v)) {
        parts.push(section(label(key), render(v), hasRows(v) ? 'wide' : ''));
      } else {
        dl.append(el('dt', {}, label(key)), el('dd', {}, cell(key, v)));
      }
    }
    return el(
      'div',
      {},
      dl.childElementCount ? dl : null,
      parts.length ? el('div', { class: 'parts' }, ...parts) : null,
    );
  }

  const section = (title, body, cls = '') =>
    el('div', { class: `part ${cls}` }, el('h4', {}, title), body);

  const MAIL_CHECKS = {
    mx: 'MX',
    spf: 'SPF',
    dmarc: 'DMARC',
    dkim: 'DKIM',
    mta_sts: 'MTA-STS',
    tls_rpt: 'TLS-RPT',
    bimi: 'BIMI',
  };

  // One function per form (by its section id): the answer's data to its verdict and body.
  const ANSWERS = {
    lookup(d) {
      const place = [d.location.city, d.location.region, d.location.country_name];
      const flags = Object.keys(d.privacy).filter((k) => d.privacy[k] === true);
      return [
        verdict(
          flags.length || d.bogon ? 'fair' : 'good',
          d.bogon ? 'bogon' : flags.join(', ') || 'no flags',
          `${d.ip}: ${place.filter(Boolean).join(', ') || 'location unknown'}`,
          d.network.asn ? `AS${d.network.asn} ${d.network.isp || d.network.org}` : null,
        ),
        render(d),
      ];
    },
    bulk(d) {
      const bad = d.errors.length;
      return [
        verdict(
          bad ? 'poor' : 'good',
          `${number(d.total)} of ${number(d.total + bad)}`,
          `${count(d.total, 'address', 'addresses')} looked up${bad ? `, ${count(bad, 'input')} not valid` : ''}`,
        ),
        table(d.results),
        bad ? section('Not looked up', table(d.errors)) : null,
      ];
    },
    asn(d) {
      if (d.type === 'name') {
        return [
          verdict(
            d.total_matches ? 'good' : 'fair',
            number(d.total_matches),
            `${count(d.total_matches, 'network')} named like “${d.query}”`,
          ),
          d.results.length ? table(d.results) : null,
        ];
      }
      if (d.type === 'ip') {
        return [
          verdict(
            d.asn ? 'good' : 'fair',
            d.asn ? `AS${d.asn}` : 'no AS',
            d.asn ? `${d.ip} is in AS${d.asn} ${d.name}` : `${d.ip} is not announced by any AS`,
            d.asn ? `prefix ${d.prefix}` : d.bogon_reason,
          ),
          render(d),
        ];
      }
      return [
        verdict(
          'good',
          `AS${d.asn}`,
          `AS${d.asn} ${d.name}`,
          `${count(d.ipv4_prefix_count, 'IPv4 prefix', 'IPv4 prefixes')} and ${count(d.ipv6_prefix_count, 'IPv6 prefix', 'IPv6 prefixes')}; ${number(d.ipv4_address_count)} IPv4 addresses`,
        ),
        render(d),
      ];
    },
    dns(d) {
      const n = d.records.length;
      const shown = d.records.slice(0, 3).map((r) => r.data);
      const headline =
        d.rcode === 'NXDOMAIN'
          ? `${d.domain} does not exist`
          : n
            ? `${count(n, `${d.type} record`)} for ${d.domain}`
            : `No ${d.type} records for ${d.domain}`;
      return [
        verdict(
          n ? 'good' : 'fair',
          d.rcode,
          headline,
          n ? shown.join(' · ') + (n > 3 ? ` · … and ${n - 3} more` : '') : null,
        ),
        n
          ? table(d.records, [
              ['name', 'name'],
              ['type', 'type', (r) => typeName(r.type)],
              ['TTL', 'TTL'],
              ['data', 'data', (r) => el('code', {}, r.data)],
            ])
          : null,
      ];
    },
    rdns(d) {
      return [
        verdict(
          d.hostname ? (d.fcrdns ? 'good' : 'poor') : 'fair',
          d.hostname ? (d.fcrdns ? 'confirmed' : 'unconfirmed') : d.rcode,
          d.hostname ? `${d.ip} is ${d.hostname}` : `No PTR name for ${d.ip}`,
          d.hostname
            ? d.fcrdns
              ? 'The name points back to the address (forward-confirmed).'
              : 'No name points back to the address.'
            : null,
        ),
        render(d),
      ];
    },
    blacklist(d) {
      const listed = d.results.filter((r) => r.listed);
      const silent = d.unavailable_count
        ? `${count(d.unavailable_count, 'list')} did not answer`
        : '';
      return [
        verdict(
          VERDICT_CLASS[d.status],
          d.status,
          d.clean
            ? `${d.ip} is on none of ${d.total_checked} blocklists`
            : `${d.ip} is listed on ${d.listed_count} of ${d.total_checked} blocklists`,
          [listed.map((r) => r.name).join(', '), silent].filter(Boolean).join('; '),
        ),
        table(
          [...listed, ...d.results.filter((r) => !r.listed)],
          [
            ['name', 'list'],
            [
              'status',
              'verdict',
              (r) =>
                r.listed || r.status !== 'not_listed'
                  ? cell('status', r.status)
                  : quiet('not listed'),
            ],
            ['zone', 'zone'],
            [
              'meaning',
              'meaning',
              (r) => cell('meaning', [...r.meaning, r.reason].filter(Boolean)),
            ],
          ],
        ),
      ];
    },
    whois(d) {
      const expired = d.expiration_date && new Date(d.expiration_date) < new Date();
      return [
        verdict(
          expired ? 'bad' : 'good',
          expired ? 'expired' : 'registered',
          `${d.domain}: ${d.registrar || 'registrar unknown'}`,
          `registered ${day(d.creation_date)}, expires ${day(d.expiration_date)}; name servers ${d.name_servers.join(', ') || 'unknown'}`,
        ),
        render(d),
      ];
    },
    down(d) {
      return [
        verdict(
          d.is_up ? 'good' : 'bad',
          d.is_up ? 'up' : 'down',
          `${d.url} is ${d.is_up ? 'up' : 'down'}`,
          [
            d.status_code ? `HTTP ${d.status_code} ${d.status_text}` : null,
            d.response_time_ms !== null ? `${number(d.response_time_ms)} ms` : null,
            d.note,
          ]
            .filter(Boolean)
            .join(' · '),
        ),
        render(d),
      ];
    },
    headers(d) {
      const { headers, ...rest } = d;
      const failed = headers.filter((h) => !h.pass);
      return [
        verdict(
          gradeClass(d.grade),
          d.grade,
          `Score ${d.score}/100: ${d.tests_passed} of ${d.tests_quantity} tests pass`,
          failed.length ? `Missing or weak: ${failed.map((h) => h.title).join(', ')}` : d.note,
        ),
        table(
          [...failed, ...headers.filter((h) => h.pass)],
          [
            ['title', 'test'],
            ['pass', 'result', (h) => (h.pass ? quiet('pass') : badge('fail', 'bad'))],
            ['score_modifier', 'score'],
            [
              'description',
              'found',
              (h) => el('span', {}, h.description, h.value ? el('code', {}, h.value) : null),
            ],
            ['recommendation', 'advice'],
          ],
        ),
        section('Details', render(rest)),
      ];
    },
    ports(d) {
      return [
        verdict(
          d.open_count ? 'poor' : 'good',
          `${number(d.open_count)} open`,
          `${count(d.open_count, 'port')} of ${d.ports_scanned} open on ${d.host}${d.ip && d.ip !== d.host ? ` (${d.ip})` : ''}`,
          [d.open_ports.length ? `open: ${d.open_ports.join(', ')}` : null, d.note]
            .filter(Boolean)
            .join(' · '),
        ),
        table(d.results),
      ];
    },
    email(d) {
      const parts = d.summary.sections;
      const all = parts.flatMap((p) =>
        (d[p.section]?.findings || []).map((f) => ({
          ...f,
          message: `${MAIL_CHECKS[p.section] || p.section}: ${f.message}`,
        })),
      );
      const tally = ['pass', 'warn', 'fail', 'none']
        .map((status) => [status, parts.filter((p) => p.status === status).length])
        .filter(([, n]) => n > 0)
        .map(([status, n]) => `${n} ${status === 'none' ? 'not set up' : status}`);
      return [
        verdict(
          gradeClass(d.summary.grade),
          d.summary.grade,
          `Score ${d.summary.score}/100 for ${d.domain}`,
          `Checks: ${tally.join(', ')}`,
        ),
        table(parts, [
          ['section', 'check', (p) => MAIL_CHECKS[p.section] || p.section],
          ['status', 'status'],
          ['points', 'points', (p) => `${p.points} of ${p.max_points}`],
        ]),
        section('Findings', all.length ? findings(all) : muted('none')),
        ...parts.map((p) =>
          el(
            'details',
            { class: 'more' },
            el('summary', {}, `${MAIL_CHECKS[p.section] || p.section} in detail`),
            render(d[p.section]),
          ),
        ),
      ];
    },
    breach(d) {
      return [
        verdict(
          d.breaches ? 'bad' : 'good',
          d.breaches ? 'found' : 'not found',
          d.breaches
            ? `${d.email} is in ${count(d.breaches, 'known breach', 'known breaches')}`
            : `${d.email} is in no known breach`,
          d.breaches ? `${d.services.join(', ')}; risk ${d.risk.level}` : null,
        ),
        render(d),
      ];
    },
  };

  function curlFor(method, url, body) {
    const quoted = (s) => `'${s.replace(/'/g, "'\\''")}'`;
    return method === 'post'
      ? `curl -X POST -H 'Content-Type: application/json' -d ${quoted(body)} ${quoted(url)}`
      : `curl ${quoted(url)}`;
  }

  function showLimits(response) {
    const limit = response.headers.get('X-RateLimit-Limit');
    const left = response.headers.get('X-RateLimit-Remaining');
    const windowS = response.headers.get('X-RateLimit-Window');
    const target = document.getElementById('limits');
    if (!target || limit === null || left === null) return;
    target.textContent = `${left} of ${limit} requests left in this ${windowS === '60' ? 'minute' : `${windowS}-second window`} for this tool.`;
  }

  async function submit(form, event) {
    event.preventDefault();
    const tool = form.closest('.tool');
    const out = tool.querySelector('.answer');
    const method = form.dataset.method;
    const data = new FormData(form);
    const url = new URL(form.dataset.api, window.location.origin);
    let body;
    if (method === 'post') {
      const ips = String(data.get('ips') || '')
        .split(/[\s,]+/)
        .filter(Boolean);
      body = JSON.stringify({ ips });
    } else {
      for (const [name, value] of data.entries())
        if (String(value).trim() !== '') url.searchParams.set(name, String(value).trim());
    }
    tool.classList.add('answered');
    out.replaceChildren(el('p', { class: 'busy' }, 'Checking…'));
    form.setAttribute('aria-busy', 'true');
    let response;
    let answer;
    try {
      response = await fetch(url, {
        method: method === 'post' ? 'POST' : 'GET',
        headers:
          method === 'post'
            ? { 'Content-Type': 'application/json', Accept: 'application/json' }
            : { Accept: 'application/json' },
        body,
      });
      answer = await response.json();
    } catch (error) {
      out.replaceChildren(
        el(
          'p',
          { class: 'error', role: 'alert' },
          `The request failed: ${error.message}. Is the server reachable?`,
        ),
      );
      return;
    } finally {
      form.removeAttribute('aria-busy');
    }
    showLimits(response);
    const curl = curlFor(method, url.href, body);
    const copy = el('button', { type: 'button', class: 'copy' }, 'Copy');
    copy.addEventListener('click', () => {
      navigator.clipboard?.writeText(curl).then(
        () => {
          copy.textContent = 'Copied';
        },
        () => {},
      );
    });
    const extras = [
      el(
        'details',
        { class: 'raw' },
        el('summary', {}, 'Raw JSON'),
        el('pre', {}, JSON.stringify(answer, null, 2)),
      ),
      el('p', { class: 'curl' }, el('code', {}, curl), ' ', copy),
    ];
    if (!response.ok || !answer.success) {
      const retry = response.headers.get('Retry-After');
      const message =
        response.status === 429
          ? `Rate limit reached: try again in ${retry || 'a few'} seconds.`
          : answer.error || `The server answered HTTP ${response.status}.`;
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, message), ...extras);
      return;
    }
    const show = ANSWERS[tool.id] || ((d) => [render(d)]);
    out.replaceChildren(el('div', { class: 'result' }, ...show(answer.data)), ...extras);
  }

  document.addEventListener('DOMContentLoaded', () => {
    for (const form of document.querySelectorAll('form[data-api]')) {
      form.addEventListener('submit', (event) => void submit(form, event));
    }
  });
})();
