/**
 * A random search for costly input shapes (issue 20 item 1): the worst cases of
 * worst-case.bench.ts are written by hand, and a shape nobody thought of is the one that costs.
 * For each parser of text, inputs are made of a short unit of hostile tokens repeated up to the
 * largest size that can arrive, with a counter (base 36) at one place in the unit so that no two
 * units are alike (caches and sets see distinct keys). The search keeps the ten costliest units
 * and tries, half of the time, one of the five best with a token added, removed or changed (a
 * hill climb); each candidate is judged as a multiple of V8's `JSON.parse` of a fixed 1 MiB
 * document timed beside it (the machine's speed changes every few seconds). The search runs hundreds of shapes in one process, and a parser that has seen
 * many shapes can read a shape up to twice as slowly as a fresh process does (its optimised
 * code has been thrown away and made again, more general, several times): the five best of each
 * parser are measured again, each in a fresh process, and both figures are printed.
 * Found this way (2026-11-29): htmlparser2's Parser quadratic on unclosed elements, WHOIS keys
 * left to the patterns, SPF `a x=y mx//64`; they are in test/adversarial/inputs.ts now.
 * Run: npx tsx bench/parsers/search.bench.ts
 * BENCH_ONLY=<parser name part> (e.g. SPF), BENCH_CANDIDATES (150 per parser), BENCH_SEED (1).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundled } from '../bundle.js';

const { modules, dispose } = await bundled({
  parsers: 'packages/core/test/adversarial/parsers.ts',
});
const { PARSERS } = modules.parsers as { PARSERS: Record<string, (input: unknown) => unknown> };

/** Per parser: its input limit, what every input starts with, and the tokens of its units. */
const SEARCHES: Record<string, { limit: number; prefix: string; tokens: string[] }> = {
  'HTML (scanHtml)': {
    limit: 256 * 1024,
    prefix: '',
    tokens: [
      ...['<script>', '</script>', '<a ', 'x=', '"', "'", '>', '<!--', '-->', '<meta ', '<b>'],
      ...['http-equiv=', 'content=', '<style>', '</style', '<textarea>', '<', '/', ' ', '=', 'a'],
      ...[
        '<script ',
        'src=',
        'integrity=',
        '<link ',
        '</',
        '<!',
        '<?',
        '&amp;',
        '<SCRIPT>',
        '</i>',
      ],
    ],
  },
  'CSP (parseCsp)': {
    // 16 KiB of header and 64 KiB of <meta> policy (csp.ts).
    limit: 80 * 1024,
    prefix: "default-src 'self'; ",
    tokens: [
      ...[' ', ';', 'script-src', 'img-src', "'self'", "'none'", "'unsafe-inline'", 'https:'],
      ...['*', '*.', '.example', '/', '/a/', '%2f', ':443', 'data:', "'nonce-", "'sha256-", "'"],
      ...['é', 'http://', 'a', ','],
    ],
  },
  'Set-Cookie (parseSetCookie)': {
    limit: 16 * 1024,
    prefix: 'a=b',
    tokens: [
      ...['a=b', ';', ' ', 'Domain=', '.example', 'Path=/', 'Expires=', 'Max-Age=', '1', '='],
      ...['Wed, 21 Oct 2015 07:28:00 GMT', '"', 'SameSite=', 'Lax', 'Secure', 'HttpOnly', ','],
    ],
  },
  'Structured field (parseDictionaryKeys)': {
    limit: 16 * 1024,
    prefix: '',
    tokens: [
      ...['a', '=', '1', ';', 'b', ',', ' ', '(', ')', '"', '\\', '?1', '*', ':', 'abc', '@'],
      ...['%', '.5', '-', 'x=(', '"a"', ':YQ==:', '1.5', '-1'],
    ],
  },
  'WHOIS (parseWhoisText)': {
    limit: 256 * 1024,
    prefix: '',
    tokens: [
      ...['\n', ' ', '  ', '\t', ':', ': ', 'Domain Name', 'Name Server', 'Registrar', 'Status'],
      ...['%', '#', '[', ']', '.', '..', '-', '_', '(', ')', '*', 'created on ', '2020-01-01'],
      ...['ns1.example.com', 'Ключ', '/', ' / ', 'http://', '>>>', 'No match', '---', '#. .'],
    ],
  },
  'SPF (parseSpfRecord)': {
    limit: 64 * 1024,
    prefix: 'v=spf1 ',
    tokens: [
      ...[' ', 'ip4:1.2.3.4', 'ip6:', '::1', '/24', '//64', 'a', 'mx', 'include:', 'exists:'],
      ...['%{d}', '%{i}', '%{d11r}', '-all', '~all', 'redirect=', 'exp=', 'a:', 'x.example'],
      ...['.', '%', '%%', '%_', '%-', '+', '?', 'ptr', '=', ':', '/', 'x=y', '{', '}'],
    ],
  },
  'DMARC (parseDmarcRecord)': {
    limit: 64 * 1024,
    prefix: 'v=DMARC1; ',
    tokens: [
      ...[';', ' ', 'p=reject', 'p=', 'rua=', 'ruf=', 'mailto:', 'a@b.example', ',', '!', '10m'],
      ...['pct=', '50', 'fo=', '1:d', ':', '=', 'sp=', 'adkim=', 's', 'x=', '%', 'V', 'P'],
    ],
  },
};

interface Shape {
  parser: string;
  unit: string[];
  /** Where the counter goes in the unit (-1: none). */
  counter: number;
}

function input(shape: Shape): unknown {
  const { limit, prefix } = SEARCHES[shape.parser] as { limit: number; prefix: string };
  let text = prefix;
  for (let i = 0; text.length < limit; i++) {
    shape.unit.forEach((token, k) => {
      text += k === shape.counter ? i.toString(36) + token : token;
    });
  }
  text = text.slice(0, limit);
  return shape.parser.startsWith('CSP') ? [text] : text;
}

const MIB = 1024 * 1024;
const yardstickText = JSON.stringify(
  Array.from({ length: 9000 }, (_, i) => ({
    handle: `H${i}`,
    roles: ['registrar', 'abuse'],
    port43: `whois${i % 97}.example`,
    events: [{ eventAction: 'registration', eventDate: `2001-0${(i % 9) + 1}-1${i % 10}` }],
    n: i,
  })),
);
const yardstick = () => {
  const t0 = performance.now();
  JSON.parse(yardstickText);
  return ((performance.now() - t0) * MIB) / yardstickText.length;
};

/** The shape's cost per MiB as a multiple of the yardstick beside it (median of `runs`). */
function cost(shape: Shape, runs: number): number {
  const parse = PARSERS[shape.parser] as (input: unknown) => unknown;
  const made = input(shape);
  const bytes = Buffer.byteLength(Array.isArray(made) ? made.join('') : (made as string));
  const repeat = Math.max(1, Math.round(MIB / bytes / 2));
  const attempt = () => {
    try {
      parse(made);
    } catch {
      // An invalid CSP throws its finding; that is a parse result.
    }
  };
  attempt();
  attempt();
  const multiples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const before = yardstick();
    const t0 = performance.now();
    for (let k = 0; k < repeat; k++) attempt();
    const perMiB = ((performance.now() - t0) * MIB) / (bytes * repeat);
    multiples.push(perMiB / ((before + yardstick()) / 2));
  }
  return multiples.sort((a, b) => a - b)[runs >> 1] as number;
}

// A child process measures one shape fresh and prints its multiple.
const fresh = process.env.SEARCH_FRESH;
if (fresh) {
  console.log(cost(JSON.parse(fresh) as Shape, 7).toFixed(2));
  dispose();
  process.exit(0);
}

let seed = Number(process.env.BENCH_SEED ?? 1);
/** A linear congruential generator: the same seed, the same search. */
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
const candidates = Number(process.env.BENCH_CANDIDATES ?? 150);
const only = process.env.BENCH_ONLY;
const self = fileURLToPath(import.meta.url);

console.log(
  `${new Date().toISOString()}, Node ${process.version}, ${candidates} candidates per parser`,
);
console.log(
  '\n| parser | unit (counter at) | × JSON.parse, in the search | × JSON.parse, fresh process |',
);
console.log('|---|---|---:|---:|');
for (const [parser, { tokens }] of Object.entries(SEARCHES)) {
  if (only && !parser.includes(only)) continue;
  let best: (Shape & { x: number })[] = [];
  for (let c = 0; c < candidates; c++) {
    let unit: string[];
    let counter: number;
    const parent = best.length > 0 && random() < 0.5 ? pick(best.slice(0, 5)) : undefined;
    if (parent) {
      unit = [...parent.unit];
      counter = parent.counter;
      const change = random();
      const at = Math.floor(random() * unit.length);
      if (change < 0.4 && unit.length < 8) unit.splice(at, 0, pick(tokens));
      else if (change < 0.7 && unit.length > 1) unit.splice(at, 1);
      else unit[at] = pick(tokens);
      if (random() < 0.2) counter = Math.floor(random() * (unit.length + 1)) - 1;
    } else {
      unit = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(tokens));
      counter = random() < 0.7 ? Math.floor(random() * unit.length) : -1;
    }
    const shape = { parser, unit, counter };
    best.push({ ...shape, x: cost(shape, 3) });
    best = best.sort((a, b) => b.x - a.x).slice(0, 10);
  }
  for (const shape of best.slice(0, 5)) {
    const again = execFileSync(process.execPath, [...process.execArgv, self], {
      env: { ...process.env, SEARCH_FRESH: JSON.stringify(shape) },
      encoding: 'utf8',
    }).trim();
    const unit = JSON.stringify(shape.unit).replaceAll('|', '\\|');
    console.log(
      `| ${parser} | \`${unit}\` (${shape.counter}) | ${shape.x.toFixed(2)} | ${again} |`,
    );
  }
}
dispose();
