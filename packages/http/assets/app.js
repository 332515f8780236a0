// netdiag's page: every form calls the JSON API on this origin and shows the answer for people
// (tables, badges, verdicts), with the raw JSON and the equivalent curl command. No framework,
// no build step, no third-party code; all text goes in through textContent, never as HTML.

(() => {
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'class') node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  const GRADE_CLASS = {
    'A+': 'good',
    A: 'good',
    'A-': 'good',
    B: 'fair',
    'B+': 'fair',
    'B-': 'fair',
    C: 'poor',
    'C+': 'poor',
    'C-': 'poor',
    D: 'bad',
    'D+': 'bad',
    'D-': 'bad',
    F: 'bad',
  };
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

  function cell(key, value) {
    if (value === null || value === undefined || value === '')
      return el('span', { class: 'muted' }, '—');
    if (typeof value === 'boolean')
      return el('span', { class: value ? 'yes' : 'no' }, value ? 'yes' : 'no');
    if (BADGE_KEYS.has(key) && typeof value === 'string') {
      return badge(value, GRADE_CLASS[value] || VERDICT_CLASS[value] || '');
    }
    if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
      if (value.length === 0) return el('span', { class: 'muted' }, 'none');
      const shown = value.slice(0, MAX_ROWS).join(', ');
      return value.length > MAX_ROWS ? `${shown}, … and ${value.length - MAX_ROWS} more` : shown;
    }
    if (typeof value === 'object') return render(value, key);
    return String(value);
  }

  // Long lists (an AS's prefixes, every SPF step) show their first rows; the rest is in Raw JSON.
  const MAX_ROWS = 15;
  const more = (count) => el('p', { class: 'muted' }, `… and ${count} more (see Raw JSON)`);

  function table(all) {
    const rows = all.slice(0, MAX_ROWS);
    const keys = [];
    for (const row of rows)
      for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    const head = el('tr', {}, ...keys.map((k) => el('th', { scope: 'col' }, k.replace(/_/g, ' '))));
    const body = rows.map((row) => el('tr', {}, ...keys.map((k) => el('td', {}, cell(k, row[k])))));
    return el(
      'div',
      { class: 'scroll' },
      el('table', {}, el('thead', {}, head), el('tbody', {}, ...body)),
      all.length > MAX_ROWS ? more(all.length - MAX_ROWS) : null,
    );
  }

  /** Findings by severity, worst first (email authentication, header grades). */
  function findings(list) {
    const order = ['fail', 'warn', 'info', 'pass'];
    const sorted = [...list].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
    return el(
      'ul',
      { class: 'findings' },
      ...sorted.map((f) =>
        el('li', {}, badge(f.severity, VERDICT_CLASS[f.severity]), ' ', f.message || f.code || ''),
      ),
    );
  }

  function render(value, key) {
    if (Array.isArray(value)) {
      if (value.length === 0) return el('span', { class: 'muted' }, 'none');
      if (key === 'findings' && value.every((v) => v && typeof v === 'object' && 'severity' in v))
        return findings(value);
      if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) return table(value);
      return el(
        'span',
        {},
        value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', '),
      );
    }
    if (value && typeof value === 'object') {
      const dl = el('dl', { class: 'facts' });
      for (const [k, v] of Object.entries(value)) {
        // A list of records (blocklist verdicts, scan results, findings) gets the full width.
        const wide = Array.isArray(v) && v.some((item) => item && typeof item === 'object');
        const attrs = wide ? { class: 'wide' } : {};
        dl.append(el('dt', attrs, k.replace(/_/g, ' ')), el('dd', attrs, cell(k, v)));
      }
      return dl;
    }
    return el('span', {}, String(value));
  }

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
    const section = form.closest('.tool');
    const out = section.querySelector('.answer');
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
    out.replaceChildren(
      el('div', { class: 'result', tabindex: '0' }, render(answer.data)),
      ...extras,
    );
  }

  document.addEventListener('DOMContentLoaded', () => {
    for (const form of document.querySelectorAll('form[data-api]')) {
      form.addEventListener('submit', (event) => void submit(form, event));
    }
  });
})();
