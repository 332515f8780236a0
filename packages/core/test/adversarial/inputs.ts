/**
 * Worst-case remote text for every parser netdiag runs on what a server sends it (issue 20 item
 * 1): the shapes that make naive parsers super-linear — many raw-text elements, unterminated
 * comments and quotes, long runs of separators, thousands of repeated keys, deep nesting,
 * compression-pointer chains. Each builder makes about `bytes` of input. Shared by the
 * property tests (`parsers-linear.test.ts`) and the benchmark (`bench/parsers`).
 */
const fill = (unit: string, bytes: number) =>
  unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)));

export interface WorstCase {
  parser: string;
  shape: string;
  /**
   * The most of this input that can reach the parser in one piece: the page cap (1 MiB), the
   * HTTP client's header limit (16 KiB), the WHOIS answer cap (256 KiB), the RDAP answer cap
   * (2 MiB), a DNS message (64 KiB; SPF and DMARC records arrive in one).
   */
  limit: number;
  make(bytes: number): unknown;
}

const KIB = 1024;
const MIB = 1024 * KIB;

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
    shape: 'one tag with thousands of attributes',
    make: (bytes) => `<meta ${fill('a=b ', bytes)}content=x http-equiv=refresh>`,
  },
  {
    parser: 'CSP (parseCsp)',
    limit: MIB,
    shape: 'one directive, thousands of sources',
    make: (bytes) => [`default-src ${fill("'self' https: ", bytes)}`],
  },
  {
    parser: 'CSP (parseCsp)',
    limit: MIB,
    shape: 'thousands of empty directives between two real ones',
    make: (bytes) => [`script-src a${fill('; ', bytes)}style-src b`],
  },
  {
    parser: 'Set-Cookie (parseSetCookie)',
    limit: 16 * KIB,
    shape: 'thousands of attributes and separators',
    make: (bytes) => `a=b${fill('; Secure; Path=/; SameSite=Lax;;==', bytes)}`,
  },
  {
    parser: 'Structured field (parseDictionaryKeys)',
    limit: 16 * KIB,
    shape: 'thousands of members with parameters',
    make: (bytes) => fill('a=?1;b;c=2, ', bytes).replace(/, $/, ''),
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
    parser: 'RDAP JSON (JSON.parse + normaliseRdapDomain)',
    limit: 2 * MIB,
    shape: 'thousands of entities, events and name servers',
    make: (bytes) => {
      const n = Math.floor(bytes / 260);
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
    parser: 'DMARC (parseDmarcRecord)',
    limit: 64 * KIB,
    shape: 'thousands of tags and report URIs',
    make: (bytes) =>
      `v=DMARC1; p=reject; rua=${fill('mailto:a@b.example!10m,', bytes / 2)}; ${fill('x=y; ', bytes / 2)}`,
  },
];

/** Bytes (characters) of a worst-case input, whatever its form. */
export function sizeOf(input: unknown): number {
  if (input instanceof Uint8Array) return input.length;
  return Array.isArray(input) ? input.join('').length : String(input).length;
}

/** Median time of `runs` calls in ms, after one warm-up call. */
export function medianMs(run: () => unknown, runs = 5): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[runs >> 1] as number;
}
