/**
 * A loopback fake of the XposedOrNot breach-analytics API (`GET /v1/breach-analytics?email=`)
 * for tests and benchmarks. Bodies follow XposedOrNot/XposedOrNot-API `api/v1/breaches.py`
 * and `services/analytics.py` field for field (`ExposedBreaches.breaches_details[]`,
 * `BreachesSummary.site`, `BreachMetrics.passwords_strength` / `risk` / `industry` /
 * `yearwise_details` / `xposed_data`, `PastesSummary`, …); the 429 bodies follow
 * `utils/custom_limiter.py`. Failure modes are switched per request with `onRequest`.
 * @module
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One breach of the fake catalog, in the upstream's stored form. */
export interface XonCatalogEntry {
  domain: string;
  industry: string;
  /** Year of the breach. */
  year: number;
  records: number;
  /** Data classes, as XposedOrNot names them. */
  data: string[];
  /** Upstream `password_risk`: plaintext, easytocrack, hardtocrack or unknown. */
  passwordRisk: 'plaintext' | 'easytocrack' | 'hardtocrack' | 'unknown';
  description: string;
}

/** Real, well-known breaches with the metadata XposedOrNot publishes for them. */
export const XON_CATALOG: Record<string, XonCatalogEntry> = {
  Adobe: {
    domain: 'adobe.com',
    industry: 'Information Technology',
    year: 2013,
    records: 152445165,
    data: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'],
    passwordRisk: 'easytocrack',
    description: 'In October 2013, 153 million Adobe accounts were breached.',
  },
  LinkedIn: {
    domain: 'linkedin.com',
    industry: 'Information Technology',
    year: 2012,
    records: 164611595,
    data: ['Email addresses', 'Passwords'],
    passwordRisk: 'easytocrack',
    description: 'In May 2016, LinkedIn had 164 million addresses and SHA1 hashes exposed.',
  },
  Dropbox: {
    domain: 'dropbox.com',
    industry: 'Information Technology',
    year: 2012,
    records: 68648009,
    data: ['Email addresses', 'Passwords'],
    passwordRisk: 'hardtocrack',
    description: 'In mid-2012, Dropbox suffered a breach exposing bcrypt and SHA1 hashes.',
  },
  RockYou: {
    domain: 'rockyou.com',
    industry: 'Entertainment',
    year: 2009,
    records: 32603388,
    data: ['Email addresses', 'Passwords'],
    passwordRisk: 'plaintext',
    description: 'In December 2009, RockYou stored passwords in plain text.',
  },
  Canva: {
    domain: 'canva.com',
    industry: 'Information Technology',
    year: 2019,
    records: 137272116,
    data: ['Email addresses', 'Geographic locations', 'Names', 'Passwords', 'Usernames'],
    passwordRisk: 'hardtocrack',
    description: 'In May 2019, Canva suffered a breach of 137 million accounts.',
  },
  Zynga: {
    domain: 'zynga.com',
    industry: 'Entertainment',
    year: 2019,
    records: 172869660,
    data: ['Email addresses', 'Passwords', 'Phone numbers', 'Usernames'],
    passwordRisk: 'easytocrack',
    description: 'In September 2019, Zynga lost 173 million accounts.',
  },
  Collection1: {
    domain: '',
    industry: 'Miscellaneous',
    year: 2019,
    records: 772904991,
    data: ['Email addresses', 'Passwords'],
    passwordRisk: 'unknown',
    description: 'A combolist of 773 million addresses circulated on hacking forums.',
  },
};

export interface XonAccount {
  /** Breach names (keys of the catalog). */
  breaches: string[];
  /** Risk to report instead of the computed one. */
  risk?: { risk_label: string; risk_score: number };
}

export type XonAction =
  /** 429 with Retry-After and the JSON body of custom_limiter.py. */
  | 'throttle'
  /** 429 without Retry-After ("request dropped due to violation history"). */
  | 'drop'
  /** 200 with a truncated JSON body. */
  | 'malformed'
  /** 200 with JSON of another shape (`ExposedBreaches` is a string). */
  | 'wrong-shape'
  /** 200 with an HTML page (a CDN interstitial). */
  | 'html'
  /** 500 with a JSON error. */
  | 'down'
  /** The socket is destroyed without an answer. */
  | 'reset'
  /** 404 `{"Error":"Not found"}`, the older "no breach" answer. */
  | 'legacy-not-found'
  /** Wait this long, then answer normally. */
  | { delayMs: number }
  /** Never answer. */
  | 'hang'
  | undefined;

export interface XonServerOptions {
  /** Address (lower case) → its breaches. Unknown addresses are in no breach. */
  accounts?: Record<string, XonAccount | string[]>;
  /** Decides per request what to do; `undefined` answers normally. */
  onRequest?: (email: string | undefined) => XonAction;
  /** Retry-After sent by `throttle`. @default 7 */
  retryAfterS?: number;
  /** Enforce "N per second" like the real API (429 above it). @default off */
  limitPerSecond?: number;
  /** Loopback address to bind. @default '127.0.0.1' */
  host?: string;
}

export interface XonFakeServer {
  /** Base URL, ready for NETDIAG_BREACH_API_URL. */
  url: string;
  /** The email parameter of every request, in order. */
  requests: (string | undefined)[];
  /** Arrival times (ms) of every request. */
  arrivals: number[];
  options: XonServerOptions;
  close(): Promise<void>;
}

/** Builds the 200 body XposedOrNot sends for `breaches` (upstream field order). */
export function breachAnalyticsBody(account: XonAccount): unknown {
  const names = account.breaches.filter((name) => XON_CATALOG[name]);
  if (names.length === 0) {
    return {
      BreachMetrics: null,
      BreachesSummary: { domain: '', site: '', tmpstmp: '' },
      ExposedBreaches: null,
      ExposedPastes: null,
      PasteMetrics: null,
      PastesSummary: { cnt: 0, domain: '', tmpstmp: '' },
    };
  }
  const entries = names.map((name) => [name, XON_CATALOG[name] as XonCatalogEntry] as const);
  const strength = { EasyToCrack: 0, PlainText: 0, StrongHash: 0, Unknown: 0 };
  const years: Record<string, number> = {};
  for (let y = 2007; y <= 2026; y++) years[`y${y}`] = 0;
  const dataCounts = new Map<string, number>();
  for (const [, b] of entries) {
    if (b.passwordRisk === 'plaintext') strength.PlainText++;
    else if (b.passwordRisk === 'easytocrack') strength.EasyToCrack++;
    else if (b.passwordRisk === 'hardtocrack') strength.StrongHash++;
    else strength.Unknown++;
    if (years[`y${b.year}`] !== undefined) years[`y${b.year}`] = (years[`y${b.year}`] ?? 0) + 1;
    for (const d of b.data) dataCounts.set(d, (dataCounts.get(d) ?? 0) + 1);
  }
  return {
    BreachMetrics: {
      get_details: [],
      industry: [
        ['misc', 'ente', 'info', 'fina', 'reta'].map((code) => [
          code,
          entries.filter(([, b]) => b.industry.toLowerCase().startsWith(code)).length,
        ]),
      ],
      passwords_strength: [strength],
      risk: [
        account.risk ??
          computeRisk(
            entries.map(([, b]) => b),
            strength,
          ),
      ],
      xposed_data: [
        {
          children: [...dataCounts].map(([name, value]) => ({
            colname: 'level3',
            group: 'A',
            name: `data_${name}`,
            value,
          })),
        },
      ],
      yearwise_details: [years],
    },
    BreachesSummary: { site: names.join(';') },
    ExposedBreaches: {
      breaches_details: entries.map(([name, b]) => ({
        breach: name,
        details: b.description,
        domain: b.domain,
        industry: b.industry,
        logo: `https://xposedornot.com/static/logos/${name}.png`,
        password_risk: b.passwordRisk,
        references: '',
        searchable: 'Yes',
        verified: 'Yes',
        xposed_data: b.data.join(';'),
        xposed_date: String(b.year),
        xposed_records: b.records,
        added: `${b.year + 1}-01-15T00:00:00+00:00`,
      })),
    },
    ExposedPastes: null,
    PasteMetrics: null,
    PastesSummary: { cnt: 0, domain: '', tmpstmp: '' },
  };
}

/**
 * The shape of upstream `calculate_risk_score` (tier points per exposed data class, +10% for a
 * plain-text password), without the recency modifier so fixtures do not age.
 */
function computeRisk(
  breaches: XonCatalogEntry[],
  strength: { PlainText: number; EasyToCrack: number },
): { risk_label: string; risk_score: number } {
  const tiers: Record<string, number> = {
    Passwords: 10,
    'Phone numbers': 7,
    'Password hints': 7,
    'Email addresses': 4,
    Usernames: 4,
    Names: 4,
  };
  const types = new Set(breaches.flatMap((b) => b.data));
  let raw = 0;
  for (const t of types) raw += tiers[t] ?? 1;
  let modifier = 1;
  const critical = strength.PlainText + strength.EasyToCrack;
  if (critical > 1) modifier += Math.min(0.15, (critical - 1) * 0.01);
  if (strength.PlainText > 0) modifier += 0.1;
  const score = Math.min(100, Math.round(raw * modifier));
  const label = score >= 76 ? 'Critical' : score >= 51 ? 'High' : score >= 26 ? 'Moderate' : 'Low';
  return { risk_label: label, risk_score: score };
}

export async function startXposedOrNotServer(
  options: XonServerOptions = {},
): Promise<XonFakeServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  const fake = { requests: [], arrivals: [], options } as unknown as XonFakeServer;
  const json = (res: http.ServerResponse, status: number, body: unknown, headers = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/v1/breach-analytics') return json(res, 404, { detail: 'Not Found' });
    const email = url.searchParams.get('email') ?? undefined;
    const now = Date.now();
    fake.requests.push(email);
    fake.arrivals.push(now);
    if (options.limitPerSecond !== undefined) {
      const recent = fake.arrivals.filter((t) => t > now - 1000).length;
      if (recent > options.limitPerSecond) return throttle(res, 1);
    }
    const action = options.onRequest?.(email);
    const answer = () => respond(res, email, action);
    if (typeof action === 'object' && action !== null) setTimeout(answer, action.delayMs);
    else answer();
  });

  function throttle(res: http.ServerResponse, retryAfter: number) {
    json(
      res,
      429,
      {
        detail: {
          error: 'Rate limit exceeded',
          detail: `Rate limit exceeded for endpoint /v1/breach-analytics. Please try again after ${retryAfter} seconds.`,
          retry_after: retryAfter,
          reset_time: new Date(Date.now() + retryAfter * 1000).toISOString(),
        },
      },
      { 'retry-after': String(retryAfter) },
    );
  }

  function respond(res: http.ServerResponse, email: string | undefined, action: XonAction) {
    switch (action) {
      case 'hang':
        return;
      case 'reset':
        return void res.socket?.destroy();
      case 'throttle':
        return throttle(res, options.retryAfterS ?? 7);
      case 'drop':
        return json(
          res,
          429,
          {
            detail: {
              error: 'Request dropped due to violation history',
              violation_count: 5,
              drop_percentage: '50%',
              detail:
                'Request dropped due to 5 previous violations. Please reduce your request rate.',
            },
          },
          { 'x-dropped': 'true', 'x-violation-count': '5', 'x-drop-percentage': '50%' },
        );
      case 'malformed':
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"BreachMetrics": {"passwords_strength": [{"EasyToCrack": 1,');
      case 'wrong-shape':
        return json(res, 200, { ExposedBreaches: 'Adobe;LinkedIn', BreachesSummary: {} });
      case 'html':
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!DOCTYPE html><title>Just a moment...</title>');
      case 'down':
        return json(res, 500, { detail: 'Internal Server Error' });
      case 'legacy-not-found':
        return json(res, 404, { Error: 'Not found' });
      default:
        break;
    }
    // Upstream: invalid or missing address → 404 {"detail": "Not found"}.
    if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      return json(res, 404, { detail: 'Not found' });
    }
    const entry = options.accounts?.[email.toLowerCase()];
    const account: XonAccount = Array.isArray(entry)
      ? { breaches: entry }
      : (entry ?? { breaches: [] });
    json(res, 200, breachAnalyticsBody(account));
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
