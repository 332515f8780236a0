/**
 * Worst-case remote text for every parser netdiag runs on what a server sends it (issue 20 item
 * 1): the shapes that make naive parsers super-linear — many raw-text elements, unterminated
 * comments and quotes, long runs of separators, thousands of repeated keys, deep nesting,
 * compression-pointer chains. Each builder makes about `bytes` of input. Shared by the
 * property tests (`parsers-linear.test.ts`) and the benchmark (`bench/parsers`).
 */
import { MAX_SOURCES } from '../../src/headers/checks/csp-parser.js';

const fill = (unit: string, bytes: number) =>
  unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)));

export interface WorstCase {
  parser: string;
  shape: string;
  /**
   * The most of this input that can reach the parser in one piece: the page cap (1 MiB), the
   * HTTP client's header limit (16 KiB), a CSP (a header's 16 KiB and the page's 64 KiB of
   * `<meta>` policy), the WHOIS answer cap (256 KiB), the RDAP answer cap (2 MiB), a DNS
   * message (64 KiB; SPF and DMARC records arrive in one).
   */
  limit: number;
  make(bytes: number): unknown;
}

const KIB = 1024;
const MIB = 1024 * KIB;
/** Headers stop at 16 KiB (undici's `maxHeaderSize`), `<meta>` policies at 64 KiB (csp.ts). */
const CSP_LIMIT = 16 * KIB + 64 * KIB;

/**
 * About `bytes` (UTF-8) of `unit(i)` for i = 0, 1, 2…: every piece distinct, so that no parser
 * can serve a repeat from a cache, a set or a sorted run.
 */
function distinct(unit: (i: number) => string, bytes: number, separator = ''): string[] {
  const pieces: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const piece = unit(i);
    pieces.push(piece);
    size += Buffer.byteLength(piece) + Buffer.byteLength(separator);
  }
  return pieces;
}

/**
 * `count` distinct pieces `unit(i, pad)` of about `bytes` in all, with one padding in every
 * piece: the most CSP sources a parse accepts (MAX_SOURCES), made as long as the bytes allow
 * (a long shared part makes every comparison of the sort slower).
 */
function sized(count: number, bytes: number, unit: (i: number, pad: string) => string): string[] {
  const bare = Array.from({ length: count }, (_, i) => unit(i, ''));
  const used = bare.reduce((sum, piece) => sum + Buffer.byteLength(piece) + 1, 0);
  const pad = 'p'.repeat(Math.max(0, Math.floor((bytes - used) / count)));
  return bare.map((_, i) => unit(i, pad));
}

/** The pieces in a fixed pseudo-random order (an LCG): sorting them gets no head start. */
function shuffled<T>(items: T[]): T[] {
  let seed = 20;
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const j = seed % (i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** `i` written with the characters of `alphabet` (bijective base n: every string once). */
function word(i: number, alphabet: string): string {
  let out = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / alphabet.length)) {
    out = (alphabet[(n - 1) % alphabet.length] as string) + out;
  }
  return out;
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A DNS name in wire form (RFC 1035 §3.1), without compression. */
function encodeName(name: string): Buffer {
  const labels = name
    .split('.')
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([...labels, Buffer.from([0])]);
}

/** A DNS response whose every answer name is a compression pointer to the previous one. */
function pointerChain(bytes: number): Uint8Array {
  // dns-packet writes compressed names itself; build the chain by hand: question, then answers
  // whose owner names are "x" + pointer to the previous answer's owner name.
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x1234, 0);
  header.writeUInt16BE(0x8180, 2); // response, RD, RA
  header.writeUInt16BE(1, 4); // QDCOUNT
  const question = Buffer.concat([encodeName('example.test'), Buffer.from([0, 1, 0, 1])]);
  const parts: Buffer[] = [header, question];
  let offset = 12;
  const answers: Buffer[] = [];
  let previous = 12; // the question name
  let position = 12 + question.length;
  // Each answer: label "x" (2 bytes) + pointer (2) + type/class/ttl/rdlength (10) + A rdata (4).
  const limit = Math.min(bytes, 65_000);
  while (position + 18 < limit && answers.length < 0xffff) {
    const rr = Buffer.alloc(18);
    rr[0] = 1;
    rr[1] = 0x78; // "x"
    rr.writeUInt16BE(0xc000 | previous, 2);
    rr.writeUInt16BE(1, 4); // A
    rr.writeUInt16BE(1, 6); // IN
    rr.writeUInt32BE(60, 8);
    rr.writeUInt16BE(4, 12);
    rr.writeUInt32BE(0x7f000001, 14);
    answers.push(rr);
    previous = position;
    position += 18;
  }
  offset = position;
  header.writeUInt16BE(answers.length, 6); // ANCOUNT
  parts.push(...answers);
  void offset;
  return Buffer.concat(parts);
}

export const WORST_CASES: readonly WorstCase[] = [
  {
    parser: 'HTML (scanHtml)',
    limit: MIB,
    shape: 'raw-text elements back to back',
    make: (bytes) => fill('<script></script><style></style><textarea></textarea>', bytes),
  },
  {
    parser: 'HTML (scanHtml)',
    limit: MIB,
    shape: 'unterminated comment and attribute quote',
    make: (bytes) =>
      `<!--${fill('<meta http-equiv="a" content="b">', bytes / 2)}<p a="${fill('<', bytes / 2)}`,
  },
  {
    parser: 'HTML (scanHtml)',
    limit: MIB,
    shape: "elements never closed (htmlparser2's Parser: 80 s)",
    make: (bytes) => fill('<b>', bytes),
  },
  {
    parser: 'HTML (scanHtml)',
    limit: MIB,
    shape: 'elements never closed, then closing tags of another (the Parser: 62 s)',
    make: (bytes) => `${fill('<b>', bytes / 2)}${fill('</i>', bytes / 2)}`,
  },
  {
    parser: 'HTML (scanHtml)',
    limit: MIB,
    shape: 'one tag with thousands of attributes',
    make: (bytes) => `<meta ${fill('a=b ', bytes)}content=x http-equiv=refresh>`,
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'one directive, thousands of sources',
    make: (bytes) => [`default-src ${fill("'self' https: ", bytes)}`],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'thousands of empty directives between two real ones',
    make: (bytes) => [`script-src a${fill('; ', bytes)}style-src b`],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'one directive, distinct short sources in random order',
    make: (bytes) => [
      `default-src ${shuffled(sized(MAX_SOURCES, bytes, (i, pad) => pad + word(i, LOWER))).join(' ')}`,
    ],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'one directive, distinct host sources in random order',
    make: (bytes) => [
      `img-src ${shuffled(sized(MAX_SOURCES, bytes, (i, pad) => `https://${pad}${word(i, LOWER)}.example`)).join(' ')}`,
    ],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'one directive, distinct non-ASCII sources in random order',
    make: (bytes) => [
      `img-src ${shuffled(sized(MAX_SOURCES, bytes, (i, pad) => `${pad}${word(i, 'äöüéèêñçßøåæœ中文字')}`)).join(' ')}`,
    ],
  },
  {
    // Past MAX_DIRECTIVES (1,024) the policy is invalid: the parse stops there.
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'thousands of distinct directives of one source',
    make: (bytes) => [distinct((i) => `x${word(i, LOWER)}-src a`, bytes, '; ').join('; ')],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'the most directives a policy may have (1,024), each of distinct sources',
    make: (bytes) => {
      const sources = shuffled(sized(MAX_SOURCES, bytes, (i, pad) => pad + word(i, LOWER)));
      const each = Math.ceil(sources.length / 1024);
      return [
        Array.from(
          { length: 1024 },
          (_, d) => `x${word(d, LOWER)}-src ${sources.slice(d * each, (d + 1) * each).join(' ')}`,
        ).join('; '),
      ];
    },
  },
  {
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'two policies of the same distinct path sources (intersection)',
    make: (bytes) => {
      const unit = (i: number, pad: string) => `https://a.example/${pad}${word(i, LOWER)}/`;
      const policy = `img-src ${shuffled(sized(MAX_SOURCES / 2, bytes / 2, unit)).join(' ')}`;
      return [policy, policy];
    },
  },
  {
    // Every later policy that names a directive merges its sources again (MAX_MERGED_SOURCES).
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'two policies of thousands of sources, then thousands of one-source policies',
    make: (bytes) => {
      const sources = sized(
        MAX_SOURCES / 2 - 16,
        bytes / 5,
        (i, pad) => `${pad}${word(i, LOWER)}.`,
      );
      const policy = `img-src ${sources.join(' ')}`;
      return [
        policy,
        policy,
        ...Array.from({ length: Math.floor(bytes / 2 / 10) }, () => 'img-src x'),
      ];
    },
  },
  {
    // Each repeat of a directive in a later policy merges its sources again (MAX_MERGED_SOURCES).
    parser: 'CSP (parseCsp)',
    limit: CSP_LIMIT,
    shape: 'a report-uri of thousands of sources, repeated in a later policy',
    make: (bytes) => {
      const repeat = 'report-uri x; ';
      const repeats = Math.min(1023, Math.floor(bytes / 4 / repeat.length));
      // "a." "b." … "aa.": none starts with another, so the prefix rule keeps them all.
      const room = (bytes - repeats * repeat.length) / 2;
      const count = (MAX_SOURCES - repeats) / 2 - 1;
      const sources = sized(count, room, (i, pad) => `${pad}${word(i, LOWER)}.`).join(' ');
      return [`report-uri ${sources}`, `report-uri ${sources}; ${repeat.repeat(repeats)}`];
    },
  },
  {
    parser: 'Set-Cookie (parseSetCookie)',
    limit: 16 * KIB,
    shape: 'thousands of attributes and separators',
    make: (bytes) => `a=b${fill('; Secure; Path=/; SameSite=Lax;;==', bytes)}`,
  },
  {
    parser: 'Set-Cookie (parseSetCookie)',
    limit: 16 * KIB,
    shape: 'thousands of Domain attributes',
    make: (bytes) => `a=b${fill(';Domain=.A', bytes)}`,
  },
  {
    parser: 'Set-Cookie (parseSetCookie)',
    limit: 16 * KIB,
    shape: 'only separators',
    make: (bytes) => `a=b${fill(';', bytes)}`,
  },
  {
    parser: 'Structured field (parseDictionaryKeys)',
    limit: 16 * KIB,
    shape: 'thousands of members with parameters',
    make: (bytes) => fill('a=?1;b;c=2, ', bytes).replace(/, $/, ''),
  },
  {
    parser: 'Structured field (parseDictionaryKeys)',
    limit: 16 * KIB,
    shape: 'thousands of one-letter members',
    make: (bytes) => fill('a,', bytes).replace(/,$/, ''),
  },
  {
    parser: 'Structured field (parseDictionaryKeys)',
    limit: 16 * KIB,
    shape: 'inner lists of thousands of items, invalid at the end',
    make: (bytes) => `a=(${fill('b;c ', bytes)}"`,
  },
  {
    parser: 'Structured field (parseDictionaryKeys)',
    limit: 16 * KIB,
    shape: 'one long string and one long token',
    make: (bytes) => `a="${fill('\\"', bytes / 2)}", b=${fill('c', bytes / 2)}`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'repeated domain keys and headings',
    make: (bytes) =>
      fill(
        'Domain Name: EXAMPLE.COM\nName Server: NS1.EXAMPLE.COM\nCreation Date: 2001-01-01\nNameservers:\n   ns2.example.com\n-----\n',
        bytes,
      ),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'lines of colons and one endless line',
    make: (bytes) => `${fill(':::::::: ::::\n', bytes / 2)}${fill('x: ', bytes / 2)}`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    shape: 'date values with unclosed format hints "(yyyy…" (was exponential)',
    limit: 256 * KIB,
    make: (bytes) => fill(`Creation Date: (${'yyyy-'.repeat(8)}\n`, bytes),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'every line a distinct key',
    make: (bytes) => distinct((i) => `Key ${word(i, LOWER)}: v\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'every line a distinct key with marks to normalise',
    make: (bytes) => distinct((i) => `** Key_${word(i, LOWER)}-(x).: v\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct keys of forty one-letter words',
    make: (bytes) =>
      distinct((i) => `* ${word(i, LOWER)}_${'a_b_c_d_e_f_g_h_i_j_'.repeat(4)}.: v\n`, bytes).join(
        '',
      ),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct long keys of Cyrillic words with marks',
    make: (bytes) =>
      distinct((i) => `Ключ_${word(i, LOWER).padStart(50, 'щ')}-ы_э: v\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct long keys with a "[" (left to the patterns)',
    make: (bytes) =>
      distinct((i) => `Key ${word(i, LOWER).padStart(50, 'q')}[x: v\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct short headings, each over an indented value',
    make: (bytes) => distinct((i) => `h${word(i, LOWER)}\n  v\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct bare short lines (each a possible heading)',
    make: (bytes) => distinct((i) => `${word(i, LOWER)}\n`, bytes).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'distinct name servers, statuses and unreadable dates',
    make: (bytes) =>
      distinct(
        (i) =>
          `Name Server: ns${i}.example.com\nDomain Status: s${i} (x) - y\nCreation Date: ${i}x\n`,
        bytes,
      ).join(''),
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'one line of spaces in a status (was quadratic: 8 s for 64 KiB)',
    make: (bytes) => `Domain Status: a${' '.repeat(bytes)}b\n`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'unclosed "(" in a status, "(http://" and "[tag=" in a registrar (were quadratic)',
    make: (bytes) =>
      `Domain Status: ${fill('(', bytes / 3)}\nRegistrar: ${fill('(http://', bytes / 3)}${fill(' [tag=', bytes / 3)}\n`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape:
      'runs of slashes, dots and spaces at the end of refer, name server, registrar (were quadratic)',
    make: (bytes) =>
      `refer: a${'/'.repeat(bytes / 4)}b\nName Server: a${'.'.repeat(bytes / 4)}b\nRegistrar: a${' '.repeat(bytes / 4)}b\nx${'.'.repeat(bytes / 4)}x:\n`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape: 'a value of spaces before a line separator, U+2028 (was quadratic: 3.5 s for 64 KiB)',
    make: (bytes) =>
      `Key:${' '.repeat(bytes / 2)}x\u2028y\n[Key]${' '.repeat(bytes / 2 - 16)}x\u2029y\n`,
  },
  {
    parser: 'WHOIS (parseWhoisText)',
    limit: 256 * KIB,
    shape:
      'runs of spaces after a key, before "#", a tab or no mark (a run scanned per key length)',
    make: (bytes) =>
      `Key${' '.repeat(bytes / 3)}#x\nKey${' '.repeat(bytes / 3)}\tx\nRecord created on${' '.repeat(bytes / 3 - 32)}x\n`,
  },
  {
    parser: 'RDAP JSON (JSON.parse + normaliseRdapDomain)',
    limit: 2 * MIB,
    shape: 'thousands of entities, events and name servers',
    make: (bytes) => {
      const n = Math.floor(bytes / 165); // about `bytes` of JSON
      return JSON.stringify({
        objectClassName: 'domain',
        ldhName: 'example.com',
        events: Array.from({ length: n }, () => ({
          eventAction: 'registration',
          eventDate: '2001-01-01T00:00:00Z',
        })),
        nameservers: Array.from({ length: n }, (_, i) => ({ ldhName: `ns${i}.example.com` })),
        entities: Array.from({ length: n }, () => ({
          roles: ['technical'],
          entities: [{ roles: ['abuse'] }],
        })),
        status: Array.from({ length: n }, () => 'active'),
      });
    },
  },
  {
    parser: 'RDAP JSON (JSON.parse + normaliseRdapDomain)',
    limit: 2 * MIB,
    shape:
      'distinct statuses, name servers and unreadable dates; a registrar vCard of thousands of properties',
    make: (bytes) => {
      const n = Math.floor(bytes / 134); // about `bytes` of JSON
      return JSON.stringify({
        objectClassName: 'domain',
        events: Array.from({ length: n }, (_, i) => ({
          eventAction: 'registration',
          eventDate: `${i}x`,
        })),
        nameservers: Array.from({ length: n }, (_, i) => ({ ldhName: `NS${i}.Example.COM.` })),
        status: Array.from({ length: n }, (_, i) => `Client  Hold ${i}`),
        entities: [
          {
            roles: ['registrar'],
            vcardArray: [
              'vcard',
              Array.from({ length: n }, (_, i) => ['note', {}, 'text', `n${i}`]),
            ],
          },
        ],
      });
    },
  },
  {
    parser: 'RDAP JSON (JSON.parse + normaliseRdapDomain)',
    limit: 2 * MIB,
    shape: 'a name server of dots (was quadratic)',
    make: (bytes) => JSON.stringify({ nameservers: [{ ldhName: `a${'.'.repeat(bytes)}b` }] }),
  },
  {
    parser: 'RDAP JSON (JSON.parse + normaliseRdapDomain)',
    limit: 2 * MIB,
    shape: 'thousands of registration events of distinct unreadable dates',
    make: (bytes) =>
      JSON.stringify({
        events: Array.from({ length: Math.floor(bytes / 52) }, (_, i) => ({
          eventAction: 'registration',
          eventDate: `${i}x`,
        })),
      }),
  },
  {
    parser: 'DNS wire (dns-packet via matchResponse)',
    limit: 64 * KIB,
    shape: 'answers chained by compression pointers (64 KiB, the TCP maximum)',
    make: (bytes) => pointerChain(bytes),
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'thousands of mechanisms and macros',
    make: (bytes) =>
      `v=spf1 ${fill('ip4:192.0.2.1/24 a:%{d}.%{i}.x mx/24 ~include:%{l}.e ', bytes)}-all`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'one term of thousands of macros and a bad "%"',
    make: (bytes) => `v=spf1 a:${fill('%{d}', bytes)}%`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'macros with part counts "%{d11}" and a bad "%" (was exponential: 40 ms for 20)',
    make: (bytes) => `v=spf1 a:${fill('%{d11}', bytes)}%`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'thousands of macros with a bad domain end; an unknown modifier of macros',
    make: (bytes) => `v=spf1 a:${fill('%{d}%%', bytes / 2)}.x- x=${fill('%{c}%{t}', bytes / 2)}`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'thousands of short invalid terms',
    make: (bytes) => `v=spf1 ${fill('a:% foo ip4:1 ip6:: x=% ', bytes)}`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    shape: 'thousands of short valid terms',
    make: (bytes) => `v=spf1 ${fill('a mx ptr x=y ip6:::1 ', bytes)}`,
  },
  {
    parser: 'SPF (parseSpfRecord)',
    limit: 64 * KIB,
    // Found by a random search over mixes of short terms: 9.6x the yardstick when `a`/`mx`
    // prefixes were matched by a pattern and modifier values by another (3.5–4.6x since).
    shape: 'thousands of short terms with prefixes and modifiers ("a x=y mx//64")',
    make: (bytes) => `v=spf1 ${fill('a x=y mx//64 ', bytes)}`,
  },
  {
    parser: 'DMARC (parseDmarcRecord)',
    limit: 64 * KIB,
    shape: 'thousands of tags and report URIs',
    make: (bytes) =>
      `v=DMARC1; p=reject; rua=${fill('mailto:a@b.example!10m,', bytes / 2)}; ${fill('x=y; ', bytes / 2)}`,
  },
  {
    parser: 'DMARC (parseDmarcRecord)',
    limit: 64 * KIB,
    shape: 'thousands of segments that are not tags',
    make: (bytes) => `v=DMARC1; ${fill('x;', bytes)}`,
  },
  {
    parser: 'DMARC (parseDmarcRecord)',
    limit: 64 * KIB,
    // Found by bench/parsers/search.bench.ts: 6.8 times the yardstick when each segment was
    // searched for ";", its name copied, trimmed and tested by a pattern.
    shape: 'thousands of repeated tags without a value',
    make: (bytes) => `v=DMARC1; ${fill(';fo=', bytes)}`,
  },
  {
    parser: 'DMARC (parseDmarcRecord)',
    limit: 64 * KIB,
    shape: 'thousands of invalid report URIs',
    make: (bytes) => `v=DMARC1; rua=${fill('a!1!1,', bytes)}`,
  },
];

/**
 * Bytes of a worst-case input as it arrives, whatever its form: text in UTF-8, since the limits
 * are bytes on the wire (a page, a header, an answer). Counting characters instead overstated a
 * text of two- and three-byte characters 2.1 times: more of it than can ever arrive at once.
 */
export function sizeOf(input: unknown): number {
  if (input instanceof Uint8Array) return input.length;
  return Buffer.byteLength(Array.isArray(input) ? input.join('') : String(input));
}

/** Wall-clock time in ms. */
export const wallMs = () => performance.now();

/**
 * CPU time of this process in ms: what a parse costs, without the time a busy machine keeps
 * the process waiting for a core (the tests run beside other test files).
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Times of `runs` calls in ms, after one warm-up call, shortest first. */
export function timesMs(run: () => unknown, runs = 5, clock: () => number = wallMs): number[] {
  run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = clock();
    run();
    times.push(clock() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Median time of `runs` calls in ms, after one warm-up call. */
export function medianMs(run: () => unknown, runs = 5, clock: () => number = wallMs): number {
  return timesMs(run, runs, clock)[runs >> 1] as number;
}
