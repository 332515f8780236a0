/**
 * check_host() against a loopback DNS server through the real resolver, section by section of
 * RFC 7208. Zone data is our own; the cases follow the spec text (and the behaviours the
 * openspf RFC 7208 test suite pins down).
 */
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createResolver } from '../../dns/index.js';
import type { DnsResolver } from '../../net/dns-types.js';
import { type EvaluateSpfInput, type EvaluateSpfOptions, evaluateSpf } from './evaluate-spf.js';

const spf = (...texts: (string | string[])[]) => ({ TXT: texts });

const zone: Zone = {
  // §4.3 initial processing
  'example.net': spf('v=spf1 -all exp=exp.example.net'),
  'exp.example.net': { TXT: ['%{l}'] },
  [`${'a'.repeat(63)}.example.com`]: spf('v=spf1 -all'),
  // §4.4 record lookup: see onQuery below for timeout/servfail/refused names
  // §4.5 selecting records
  'split-nospace.example.com': spf(['v=spf1', 'ip4:192.0.2.1']),
  'split-space.example.com': spf(['v=spf1 ', 'ip4:192.0.2.1']),
  'empty.example.com': spf('v=spf1'),
  'two.example.com': spf('v=spf1 -all', 'v=spf1 +all'),
  'spf10.example.com': spf('v=spf10 +all'),
  'case.example.com': spf('V=SpF1 ~all'),
  'other-txt.example.com': spf('v=spf1 -all', '\u0096 not ascii', 'google-site-verification=x'),
  // §4.6 record evaluation
  'anywhere.example.com': spf('v=spf1 ip4:192.0.2.1 -all moo'),
  'unknown-mod.example.com': spf('v=spf1 moo.cow-far_out=man:dog/cat ip4:192.0.2.1 -all'),
  'redirect-all.example.com': spf('v=spf1 redirect=redirect-all.example.com ~all'),
  'redirect-after.example.com': spf('v=spf1 ip4:192.0.2.1 redirect=minus-all.example.com'),
  'minus-all.example.com': spf('v=spf1 -all'),
  'no-match.example.com': spf('v=spf1 ip4:192.0.2.1'),
  'ctrl.example.com': { TXT: ['v=spf1 a:ctrl.example.com\rptr -all'], A: ['192.0.2.3'] },
  'two-spaces.example.com': { TXT: ['v=spf1 a  -all'], A: ['192.0.2.3'] },
  // §5.1 all
  'all-arg.example.com': spf('v=spf1 -all:foobar'),
  'all-dot.example.com': spf('v=spf1 -all.'),
  'all-double.example.com': spf('v=spf1 all -all'),
  // §5.2 include
  'inc-pass.example.com': spf('v=spf1 ip4:192.0.2.1 -all'),
  'inc-softfail.example.com': spf('v=spf1 ip4:192.0.2.99 ~all'),
  'inc-neutral.example.com': spf('v=spf1 ip4:192.0.2.99 ?all'),
  'inc-perm.example.com': spf('v=spf1 include +all'),
  'inc-none.example.com': spf('not an spf record'),
  'i1.example.com': spf('v=spf1 include:inc-pass.example.com ~all'),
  'i2.example.com': spf('v=spf1 include:inc-softfail.example.com all'),
  'i3.example.com': spf('v=spf1 include:inc-neutral.example.com -all'),
  'i4.example.com': spf('v=spf1 include:timeout.example.com -all'),
  'i5.example.com': spf('v=spf1 include:inc-perm.example.com -all'),
  'i6.example.com': spf('v=spf1 include:inc-none.example.com -all'),
  'i7.example.com': spf('v=spf1 include:nothing-here.example.com -all'),
  'i8.example.com': spf('v=spf1 include:inc-pass.example.com/24 -all'),
  'i9.example.com': spf('v=spf1 include:servfail.example.com -all'),
  // §5.3 a
  'a-host.example.com': { A: ['192.0.2.10', '198.51.100.7'], AAAA: ['2001:db8:1234::dead:beef'] },
  'a1.example.com': spf('v=spf1 a:a-host.example.com -all'),
  'a2.example.com': spf('v=spf1 a:a-host.example.com/24 -all'),
  'a3.example.com': {
    TXT: ['v=spf1 a/24//64 -all'],
    A: ['192.0.2.10'],
    AAAA: ['2001:db8:1234::dead:beef'],
  },
  'a4.example.com': { TXT: ['v=spf1 a -all'], A: ['192.0.2.10'], AAAA: ['2001:db8:1234::1'] },
  'a5.example.com': spf('v=spf1 a:nothing-here.example.com/0 -all'),
  'a6.example.com': { TXT: ['v=spf1 a//0 -all'], AAAA: ['2001:db8::1'] },
  'a7.example.com': spf('v=spf1 a:192.0.2.10 -all'),
  'a8.example.com': spf('v=spf1 a:foo:bar/baz.example.com -all'),
  'foo:bar/baz.example.com': { A: ['192.0.2.12'] },
  'a9.example.com': spf('v=spf1 a:mail.example...com -all'),
  'a10.example.com': spf('v=spf1 a:cname.example.com -all'),
  'cname.example.com': { CNAME: 'a-host.example.com' },
  // §5.4 mx
  'mx1.example.com': {
    TXT: ['v=spf1 mx -all'],
    MX: [
      { preference: 10, exchange: 'mail1.example.com' },
      { preference: 20, exchange: 'mail2.example.com' },
    ],
  },
  'mail1.example.com': { A: ['192.0.2.20'], AAAA: ['2001:db8::20'] },
  'mail2.example.com': { A: ['192.0.2.21'] },
  'mx2.example.com': spf('v=spf1 mx:mx1.example.com/24 -all'),
  'mx-implicit.example.com': { TXT: ['v=spf1 mx'], A: ['192.0.2.30'] },
  'mx-null.example.com': { TXT: ['v=spf1 mx -all'], MX: [{ preference: 0, exchange: '.' }] },
  'mx-many.example.com': {
    TXT: ['v=spf1 mx'],
    MX: Array.from({ length: 11 }, (_, i) => ({ preference: i, exchange: `m${i}.example.com` })),
  },
  'mx-ten.example.com': {
    TXT: ['v=spf1 mx -all'],
    MX: Array.from({ length: 10 }, (_, i) => ({ preference: i, exchange: `m${i}.example.com` })),
  },
  'm9.example.com': { A: ['192.0.2.40'] },
  'mx-err.example.com': {
    TXT: ['v=spf1 mx -all'],
    MX: [{ preference: 10, exchange: 'servfail-host.example.com' }],
  },
  // §5.5 ptr
  '50.2.0.192.in-addr.arpa': { PTR: ['Host.PTR.example.com', 'fake.ptr.example.com'] },
  [reverse6('2001:db8::50')]: { PTR: ['host.ptr.example.com'] },
  'host.ptr.example.com': { A: ['192.0.2.50'], AAAA: ['2001:db8::50'] },
  'fake.ptr.example.com': { A: ['192.0.2.51'] },
  'ptr.example.com': spf('v=spf1 ptr -all'),
  'ptr1.example.com': spf('v=spf1 ptr:ptr.example.com -all'),
  'ptr2.example.com': spf('v=spf1 ptr:fake.ptr.example.com -all'),
  'ptr3.example.com': spf('v=spf1 ptr/0 -all'),
  '90.2.0.192.in-addr.arpa': {
    PTR: Array.from({ length: 11 }, (_, i) => `p${i + 1}.example.com`),
  },
  'p11.example.com': { A: ['192.0.2.90'] },
  'p10.example.com': { A: ['192.0.2.91'] },
  '91.2.0.192.in-addr.arpa': {
    PTR: Array.from({ length: 10 }, (_, i) => `p${i + 1}.example.com`),
  },
  'ptr-many.example.com': spf('v=spf1 ptr:example.com -all'),
  // §5.6 ip4 / ip6
  'ip1.example.com': spf('v=spf1 -ip4:192.0.2.60 ip6:::ffff:192.0.2.60 +all'),
  'ip2.example.com': spf('v=spf1 ip6:::1.1.1.1/0'),
  'ip3.example.com': spf('v=spf1 ip6:2001:db8:8000::/33'),
  'ip4-0.example.com': spf('v=spf1 ip4:198.51.100.1/0 -all'),
  'ip4-bad.example.com': spf('v=spf1 ip4:192.0.2 -all'),
  // §5.7 exists
  'exists1.example.com': spf('v=spf1 exists:mail2.example.com -all'),
  'exists2.example.com': spf('v=spf1 exists:v6only.example.com -all'),
  'v6only.example.com': { AAAA: ['2001:db8::77'] },
  'exists3.example.com': spf('v=spf1 exists:timeout.example.com -all'),
  // §6 modifiers
  'redir-none.example.com': spf('v=spf1 redirect=nothing-here.example.com'),
  'redir-exp.example.com': spf('v=spf1 exp=exp-a.example.com redirect=redir-target.example.com'),
  'redir-target.example.com': spf('v=spf1 -all exp=exp-b.example.com'),
  'exp-a.example.com': { TXT: ['Not this one.'] },
  'exp-b.example.com': { TXT: ['See target.'] },
  'exp-c.example.com': { TXT: ['Outer.'] },
  'redir-d.example.com': { TXT: ['v=spf1 redirect=redir-d-target.example.com'], A: ['192.0.2.70'] },
  'redir-d-target.example.com': { TXT: ['v=spf1 a -all'], A: ['192.0.2.71'] },
  'inc-exp.example.com': spf('v=spf1 include:redir-exp.example.com -all exp=exp-c.example.com'),
  'exp-multi.example.com': spf('v=spf1 -all exp=two-txt.example.com'),
  'two-txt.example.com': { TXT: ['one', 'two'] },
  'exp-dnserr.example.com': spf('v=spf1 -all exp=servfail.example.com'),
  'exp-macros.example.com': spf('v=spf1 -all exp=explain.%{d}'),
  'explain.exp-macros.example.com': {
    TXT: [['%{c} may not send for %{d} ', '(%{i}, %{v}, %{h}, %{s}, %{r})']],
  },
  'exp-bad.example.com': spf('v=spf1 -all exp=badtxt.example.com'),
  'badtxt.example.com': { TXT: ['The %{x}-files.'] },
  'exp-nonascii.example.com': spf('v=spf1 -all exp=nonascii-txt.example.com'),
  'nonascii-txt.example.com': { TXT: ['\ufeffExplanation'] },
  'exp-empty.example.com': spf('v=spf1 exp= -all'),
  'exp-twice.example.com': spf('v=spf1 exp=exp-a.example.com -all exp=exp-b.example.com'),
  'exp-void.example.com': spf(
    'v=spf1 a:nx1.example.com a:nx2.example.com exp=nx3.example.com -all',
  ),
  'softfail-exp.example.com': spf('v=spf1 ~all exp=exp-a.example.com'),
  // §7 macros
  'macro-exists.example.com': spf('v=spf1 exists:%{ir}.%{l1r-}.lp._spf.%{d2} -all'),
  '3.2.0.192.strong.lp._spf.example.com': { A: ['127.0.0.2'] },
  'macro-upper.example.com': spf('v=spf1 -all exp=msg.%{D2}'),
  'msg.example.com': { TXT: ['http://example.com/why.html?l=%{L}'] },
  'macro-p.example.com': spf('v=spf1 -all exp=p-msg.example.com'),
  'p-msg.example.com': { TXT: ['connect from %{p}'] },
  'macro-h.example.com': spf('v=spf1 a:%{h} -all'),
  'macro-split.example.com': spf('v=spf1 exists:%{l2r+-}.user.%{d2}'),
  'bar.foo.user.example.com': { A: ['127.0.0.2'] },
  // §4.6.4 limits
  'limit-10.example.com': {
    TXT: ['v=spf1 a mx a mx a mx a mx a ptr ip4:192.0.2.80 -all'],
    A: ['192.0.2.81'],
    MX: [{ preference: 10, exchange: 'limit-10.example.com' }],
  },
  'limit-11.example.com': {
    TXT: ['v=spf1 a mx a mx a mx a mx a ptr a ip4:192.0.2.80 -all'],
    A: ['192.0.2.81'],
    MX: [{ preference: 10, exchange: 'limit-11.example.com' }],
  },
  'eight-a.example.com': { TXT: ['v=spf1 a a a a a a a a'], A: ['192.0.2.99'] },
  'inc-at-limit.example.com': {
    TXT: ['v=spf1 a include:eight-a.example.com ip4:192.0.2.80 mx -all'],
    A: ['192.0.2.98'],
  },
  'inc-over-limit.example.com': {
    TXT: ['v=spf1 a include:eight-a.example.com a ip4:192.0.2.80 -all'],
    A: ['192.0.2.98'],
  },
  'redir-loop.example.com': spf('v=spf1 ip4:192.0.2.1 redirect=redir-loop.example.com'),
  'inc-loop-a.example.com': spf('v=spf1 include:inc-loop-b.example.com'),
  'inc-loop-b.example.com': spf('v=spf1 include:inc-loop-a.example.com'),
  'void-2.example.com': spf('v=spf1 a:nx1.example.com a:nx2.example.com ?all'),
  'void-3.example.com': spf('v=spf1 a:nx1.example.com a:nx2.example.com a:nx3.example.com ?all'),
  'void-nodata.example.com': spf(
    'v=spf1 a:v6only.example.com exists:nx1.example.com mx:nx2.example.com ?all',
  ),
  'many-a.example.com': {
    TXT: ['v=spf1 a -all'],
    A: Array.from({ length: 12 }, (_, i) => `192.0.2.${110 + i}`),
  },
  // §2.4 the null sender: postmaster@<helo>
  'helo.example.com': { TXT: ['v=spf1 a -all'], A: ['192.0.2.100'] },
};

/** The ip6.arpa name of an IPv6 address (RFC 3596 §2.5). */
function reverse6(address: string): string {
  const groups = address.split('::');
  const head = (groups[0] ?? '').split(':').filter(Boolean);
  const tail = (groups[1] ?? '').split(':').filter(Boolean);
  const all = [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
  const hex = all.map((g) => g.padStart(4, '0')).join('');
  return `${hex.split('').reverse().join('.')}.ip6.arpa`;
}

let server: DnsTestServer;
let resolver: DnsResolver;

beforeAll(async () => {
  server = await startDnsServer({
    zone,
    onQuery: (q) => {
      if (q.name.startsWith('timeout.')) return 'drop';
      if (q.name.startsWith('servfail')) return 'servfail';
      if (q.name.startsWith('refused.')) return 'refused';
      if (q.name.startsWith('slow.')) return { delayMs: 600 };
      return undefined;
    },
  });
  resolver = createResolver({
    servers: [server.address],
    attemptTimeout: 1000,
    tries: 1,
    cache: false,
  });
});

afterAll(async () => {
  await server.close();
});

type Case = [
  name: string,
  /** The connection, and the checking host's name for `%{r}` when a case needs one. */
  input: EvaluateSpfInput & Pick<EvaluateSpfOptions, 'receiver'>,
  result: string,
  extra?: { explanation?: string | null; reason?: string; matched_term?: string },
];

function runTable(cases: Case[]) {
  test.each(cases)('%s', async (_name, input, result, extra) => {
    const { receiver, ...connection } = input;
    const evaluation = await evaluateSpf(connection, {
      resolver,
      ...(receiver !== undefined ? { receiver } : {}),
    });
    expect(evaluation.result, evaluation.reason).toBe(result);
    if (extra && 'explanation' in extra) expect(evaluation.explanation).toBe(extra.explanation);
    if (extra?.reason) expect(evaluation.reason).toContain(extra.reason);
    if (extra?.matched_term) expect(evaluation.matched_term).toBe(extra.matched_term);
  });
}

const from = (sender: string, ip = '192.0.2.1') => ({ ip, sender, helo: 'mail.example.org' });

describe('§4.3 initial processing', () => {
  runTable([
    ['a label over 63 octets gives none', from(`x@${'a'.repeat(64)}.example.com`), 'none'],
    ['a 63-octet label is fine', from(`x@${'a'.repeat(63)}.example.com`), 'fail'],
    ['an empty label gives none', from('x@a...example.com'), 'none'],
    ['a domain that does not exist gives none', from('x@nothing-here.example.com'), 'none'],
    [
      'a null sender with a single-label HELO gives none',
      { ip: '192.0.2.1', sender: '', helo: 'A2345678' },
      'none',
    ],
    [
      'a null sender with a domain-literal HELO gives none',
      { ip: '192.0.2.1', sender: '', helo: '[192.0.2.1]' },
      'none',
    ],
    [
      'an empty local-part becomes postmaster (§4.3)',
      from('@example.net'),
      'fail',
      { explanation: 'postmaster' },
    ],
  ]);
});

describe('§4.4 record lookup', () => {
  runTable([
    [
      'a TXT timeout is a temperror',
      from('x@timeout.example.com'),
      'temperror',
      { reason: 'timed out' },
    ],
    [
      'SERVFAIL is a temperror',
      from('x@servfail.example.com'),
      'temperror',
      { reason: 'SERVFAIL' },
    ],
    ['REFUSED is a temperror', from('x@refused.example.com'), 'temperror', { reason: 'REFUSED' }],
  ]);
});

describe('§4.5 selecting records', () => {
  runTable([
    ['strings are joined without spaces', from('x@split-nospace.example.com'), 'none'],
    [
      'a space inside the first string keeps terms apart',
      from('x@split-space.example.com'),
      'pass',
    ],
    ['the empty record gives neutral', from('x@empty.example.com'), 'neutral'],
    [
      'two records are a permerror',
      from('x@two.example.com'),
      'permerror',
      { reason: '2 SPF records' },
    ],
    ['v=spf10 is not a version-1 record', from('x@spf10.example.com'), 'none'],
    ['the version is case-insensitive', from('x@case.example.com'), 'softfail'],
    ['other TXT records, even non-ASCII, are ignored', from('x@other-txt.example.com'), 'fail'],
  ]);
});

describe('§4.6 record evaluation', () => {
  runTable([
    [
      'a syntax error anywhere is a permerror, even after a match',
      from('x@anywhere.example.com'),
      'permerror',
      { reason: 'moo' },
    ],
    ['unknown modifiers with a valid name are ignored', from('x@unknown-mod.example.com'), 'pass'],
    [
      'redirect is ignored when the record has "all"',
      from('x@redirect-all.example.com'),
      'softfail',
    ],
    [
      'redirect applies after every mechanism failed',
      from('x@redirect-after.example.com', '192.0.2.2'),
      'fail',
    ],
    [
      'a mechanism before redirect still matches first',
      from('x@redirect-after.example.com'),
      'pass',
    ],
    [
      'no match and no redirect gives neutral (§4.7)',
      from('x@no-match.example.com', '192.0.2.2'),
      'neutral',
    ],
    ['terms are separated by spaces only', from('x@ctrl.example.com', '192.0.2.3'), 'permerror'],
    ['several spaces separate terms too', from('x@two-spaces.example.com', '192.0.2.3'), 'pass'],
  ]);
});

describe('§5.1 all', () => {
  runTable([
    ['"all" takes no argument', from('x@all-arg.example.com'), 'permerror'],
    ['"all." is not "all"', from('x@all-dot.example.com'), 'permerror'],
    ['the first "all" wins', from('x@all-double.example.com'), 'pass'],
  ]);
});

describe('§5.2 include', () => {
  runTable([
    [
      'include pass is a match',
      from('x@i1.example.com'),
      'pass',
      { matched_term: 'include:inc-pass.example.com' },
    ],
    ['include fail is no match', from('x@i1.example.com', '192.0.2.2'), 'softfail'],
    ['include softfail is no match', from('x@i2.example.com'), 'pass', { matched_term: 'all' }],
    ['include neutral is no match', from('x@i3.example.com'), 'fail'],
    ['include temperror is temperror', from('x@i4.example.com'), 'temperror'],
    ['include SERVFAIL is temperror', from('x@i9.example.com'), 'temperror'],
    ['include permerror is permerror', from('x@i5.example.com'), 'permerror'],
    [
      'include of a domain without SPF is permerror',
      from('x@i6.example.com'),
      'permerror',
      { reason: 'has no SPF record' },
    ],
    ['include of NXDOMAIN is permerror', from('x@i7.example.com'), 'permerror'],
    ['include takes no prefix length', from('x@i8.example.com'), 'permerror'],
  ]);
});

describe('§5.3 a', () => {
  runTable([
    ['matches any returned address', from('x@a1.example.com', '198.51.100.7'), 'pass'],
    ['no address matches', from('x@a1.example.com', '192.0.2.11'), 'fail'],
    ['an IPv4 prefix widens the match', from('x@a2.example.com', '192.0.2.11'), 'pass'],
    ['dual prefix: IPv4 side', from('x@a3.example.com', '192.0.2.77'), 'pass'],
    ['dual prefix: IPv6 side', from('x@a3.example.com', '2001:db8:1234::cafe:babe'), 'pass'],
    ['dual prefix: outside the IPv6 /64', from('x@a3.example.com', '2001:db8:1235::1'), 'fail'],
    ['an IPv4-mapped client is IPv4 (§5)', from('x@a4.example.com', '::ffff:192.0.2.10'), 'pass'],
    ['an IPv6 client uses AAAA', from('x@a4.example.com', '2001:db8:1234::1'), 'pass'],
    ['no addresses never match, even with /0', from('x@a5.example.com'), 'fail'],
    [
      'a//0 matches any IPv6 client when AAAA exists',
      from('x@a6.example.com', '2001:db8:ffff::9'),
      'pass',
    ],
    ['a//0 has no A records for an IPv4 client', from('x@a6.example.com', '192.0.2.10'), 'fail'],
    ['an IP literal is not a domain-spec', from('x@a7.example.com', '192.0.2.10'), 'permerror'],
    ['a domain-spec may hold ":" and "/"', from('x@a8.example.com', '192.0.2.12'), 'pass'],
    ['an empty label in the target is no match', from('x@a9.example.com'), 'fail'],
    ['a CNAME is followed', from('x@a10.example.com', '192.0.2.10'), 'pass'],
  ]);
});

describe('§5.4 mx', () => {
  runTable([
    ['matches an address of any MX host', from('x@mx1.example.com', '192.0.2.21'), 'pass'],
    ["IPv6 uses the hosts' AAAA", from('x@mx1.example.com', '2001:db8::20'), 'pass'],
    ['no host matches', from('x@mx1.example.com', '192.0.2.22'), 'fail'],
    ['a prefix applies to the host addresses', from('x@mx2.example.com', '192.0.2.99'), 'pass'],
    ['no MX: no implicit A lookup', from('x@mx-implicit.example.com', '192.0.2.30'), 'neutral'],
    ['a Null MX names no host (RFC 7505)', from('x@mx-null.example.com'), 'fail'],
    [
      'more than 10 MX names is a permerror (§4.6.4)',
      from('x@mx-many.example.com'),
      'permerror',
      { reason: '11 MX hosts' },
    ],
    ['10 MX names are looked up', from('x@mx-ten.example.com', '192.0.2.40'), 'pass'],
    ['an MX host lookup failure is a temperror', from('x@mx-err.example.com'), 'temperror'],
  ]);
});

describe('§5.5 ptr', () => {
  runTable([
    ['a validated name within the target', from('x@ptr1.example.com', '192.0.2.50'), 'pass'],
    ['the default target is the domain', from('x@ptr.example.com', '192.0.2.50'), 'pass'],
    [
      'a name that does not validate never matches',
      from('x@ptr2.example.com', '192.0.2.50'),
      'fail',
    ],
    ['IPv6 clients use ip6.arpa and AAAA', from('x@ptr1.example.com', '2001:db8::50'), 'pass'],
    ['no PTR record is no match', from('x@ptr1.example.com', '192.0.2.52'), 'fail'],
    ['ptr takes no prefix length', from('x@ptr3.example.com', '192.0.2.50'), 'permerror'],
    [
      'only the first 10 PTR names are checked (§4.6.4)',
      from('x@ptr-many.example.com', '192.0.2.90'),
      'fail',
    ],
    ['the 10th PTR name is checked', from('x@ptr-many.example.com', '192.0.2.91'), 'pass'],
  ]);
});

describe('§5.6 ip4 and ip6', () => {
  runTable([
    [
      'an IPv4-mapped client matches ip4, not ip6',
      from('x@ip1.example.com', '::ffff:192.0.2.60'),
      'fail',
    ],
    ['ip6 never matches an IPv4 client', from('x@ip2.example.com', '192.0.2.1'), 'neutral'],
    [
      'ip6 never matches an IPv4-mapped client',
      from('x@ip2.example.com', '::FFFF:192.0.2.1'),
      'neutral',
    ],
    ['ip6 /0 matches every IPv6 client', from('x@ip2.example.com', 'DEAF:BABE::CAB:FEE'), 'pass'],
    ['an IPv6 /33', from('x@ip3.example.com', '2001:db8:8000::1'), 'pass'],
    ['outside the IPv6 /33', from('x@ip3.example.com', '2001:db8::1'), 'neutral'],
    ['ip4 /0 matches everything IPv4', from('x@ip4-0.example.com', '203.0.113.9'), 'pass'],
    ['a short ip4 network is a syntax error', from('x@ip4-bad.example.com'), 'permerror'],
  ]);
});

describe('§5.7 exists', () => {
  runTable([
    ['any A record matches', from('x@exists1.example.com'), 'pass'],
    ['the lookup is A even for IPv6 clients', from('x@exists1.example.com', '2001:db8::9'), 'pass'],
    ['AAAA records do not count', from('x@exists2.example.com', '2001:db8::77'), 'fail'],
    ['a DNS timeout is a temperror', from('x@exists3.example.com'), 'temperror'],
  ]);
});

describe('§6 redirect and exp', () => {
  runTable([
    [
      'redirect to a domain without SPF is a permerror (§6.1)',
      from('x@redir-none.example.com'),
      'permerror',
    ],
    [
      "redirect uses the target's exp, not the original's (§6.2)",
      from('x@redir-exp.example.com'),
      'fail',
      { explanation: 'See target.' },
    ],
    [
      'redirect changes %{d} and the implicit a target (§6.1)',
      from('x@redir-d.example.com', '192.0.2.71'),
      'pass',
    ],
    [
      'include ignores the included exp (§6.2)',
      from('x@inc-exp.example.com'),
      'fail',
      { explanation: 'Outer.' },
    ],
    [
      'several TXT records: no explanation',
      from('x@exp-multi.example.com'),
      'fail',
      { explanation: null },
    ],
    [
      'a DNS error: no explanation',
      from('x@exp-dnserr.example.com'),
      'fail',
      { explanation: null },
    ],
    [
      'a macro syntax error: no explanation',
      from('x@exp-bad.example.com'),
      'fail',
      { explanation: null },
    ],
    [
      'non-ASCII text: no explanation',
      from('x@exp-nonascii.example.com'),
      'fail',
      { explanation: null },
    ],
    [
      'explanations expand macros, c/r/t included (§6.2, §7)',
      {
        ip: '192.0.2.5',
        sender: 'bob@exp-macros.example.com',
        helo: 'mail.example.org',
        receiver: 'mx.receiver.test',
      },
      'fail',
      {
        explanation:
          '192.0.2.5 may not send for exp-macros.example.com (192.0.2.5, in-addr, mail.example.org, bob@exp-macros.example.com, mx.receiver.test)',
      },
    ],
    ['exp= with an empty domain is a permerror', from('x@exp-empty.example.com'), 'permerror'],
    ['exp twice is a permerror', from('x@exp-twice.example.com'), 'permerror'],
    [
      'the exp lookup is not a void lookup',
      from('x@exp-void.example.com'),
      'fail',
      { explanation: null },
    ],
    ['exp is only for fail', from('x@softfail-exp.example.com'), 'softfail', { explanation: null }],
  ]);
});

describe('§7 macros in evaluation', () => {
  runTable([
    [
      'exists with %{ir}, %{l1r-} and %{d2}',
      from('strong-bad@macro-exists.example.com', '192.0.2.3'),
      'pass',
    ],
    [
      'an upper-case macro is URL-escaped in the explanation',
      from('~jack&jill=up-a_b3.c@macro-upper.example.com'),
      'fail',
      { explanation: 'http://example.com/why.html?l=~jack%26jill%3Dup-a_b3.c' },
    ],
    [
      '%{p} is the validated name',
      from('x@macro-p.example.com', '192.0.2.50'),
      'fail',
      { explanation: 'connect from host.ptr.example.com' },
    ],
    [
      '%{p} is "unknown" without a validated name',
      from('x@macro-p.example.com', '192.0.2.51'),
      'fail',
      { explanation: 'connect from unknown' },
    ],
    [
      '%{h} is the HELO name',
      { ip: '192.0.2.21', sender: 'x@macro-h.example.com', helo: 'mail2.example.com' },
      'pass',
    ],
    [
      'an invalid HELO expands to a name that cannot exist',
      { ip: '192.0.2.21', sender: 'x@macro-h.example.com', helo: "JUMPIN' JUPITER" },
      'fail',
    ],
    [
      'several delimiters split the local-part',
      from('foo-bar+zip+quux@macro-split.example.com'),
      'pass',
    ],
  ]);

  test('IPv6 %{i} and %{c} in an explanation', async () => {
    const evaluation = await evaluateSpf(
      { ip: '2001:DB8::CB01', sender: 'x@exp-macros.example.com' },
      { resolver },
    );
    expect(evaluation.explanation).toContain('2001:db8::cb01 may not send');
    expect(evaluation.explanation).toContain(
      '2.0.0.1.0.d.b.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.c.b.0.1, ip6',
    );
  });
});

describe('§4.6.4 processing limits', () => {
  runTable([
    ['10 lookup terms are allowed', from('x@limit-10.example.com', '192.0.2.80'), 'pass'],
    [
      'the 11th lookup term is a permerror that names it',
      from('x@limit-11.example.com', '192.0.2.80'),
      'permerror',
      { reason: '"a" is DNS-lookup term number 11' },
    ],
    ['include counts with its terms: 10', from('x@inc-at-limit.example.com', '192.0.2.80'), 'pass'],
    [
      'include counts with its terms: 11',
      from('x@inc-over-limit.example.com', '192.0.2.80'),
      'permerror',
    ],
    ['a redirect loop hits the limit', from('x@redir-loop.example.com', '192.0.2.2'), 'permerror'],
    ['an include loop hits the limit', from('x@inc-loop-a.example.com'), 'permerror'],
    ['two void lookups are allowed', from('x@void-2.example.com'), 'neutral'],
    [
      'a third void lookup is a permerror',
      from('x@void-3.example.com'),
      'permerror',
      { reason: 'void lookup number 3' },
    ],
    [
      'NODATA counts as void like NXDOMAIN',
      from('x@void-nodata.example.com'),
      'permerror',
      { reason: 'mx:nx2.example.com' },
    ],
    ['A records have no count limit', from('x@many-a.example.com', '192.0.2.121'), 'pass'],
  ]);

  test('the counters are reported', async () => {
    const evaluation = await evaluateSpf(from('x@void-2.example.com'), { resolver });
    expect(evaluation).toMatchObject({ dns_lookups: 2, void_lookups: 2 });
    const limit = await evaluateSpf(from('x@limit-10.example.com', '192.0.2.80'), { resolver });
    expect(limit.dns_lookups).toBe(10);
  });

  test('the whole check has a time limit; exceeding it is temperror', async () => {
    const slow = createResolver({ servers: [server.address], attemptTimeout: 2000, cache: false });
    const started = Date.now();
    const evaluation = await evaluateSpf(
      { ip: '192.0.2.1', sender: 'x@slow.example.com' },
      { resolver: slow, timeout: 200 },
    );
    expect(evaluation.result).toBe('temperror');
    expect(evaluation.reason).toContain('200 ms');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('identities (§2.3, §2.4)', () => {
  test('the null sender is postmaster@<helo>', async () => {
    const evaluation = await evaluateSpf(
      { ip: '192.0.2.100', sender: '', helo: 'helo.example.com' },
      { resolver },
    );
    expect(evaluation).toMatchObject({
      result: 'pass',
      sender: 'postmaster@helo.example.com',
      domain: 'helo.example.com',
    });
  });

  test('a domain can be checked with a sender from elsewhere', async () => {
    const evaluation = await evaluateSpf(
      { ip: '192.0.2.100', domain: 'helo.example.com', sender: 'alice@other.example' },
      { resolver },
    );
    expect(evaluation).toMatchObject({
      result: 'pass',
      domain: 'helo.example.com',
      sender: 'alice@other.example',
      helo: 'other.example',
    });
  });

  test('the trace lists the records and terms evaluated', async () => {
    const evaluation = await evaluateSpf(from('x@i1.example.com'), { resolver });
    expect(evaluation.trace.map((s) => [s.depth, s.outcome, s.term])).toEqual([
      [0, 'record', 'v=spf1 include:inc-pass.example.com ~all'],
      [1, 'record', 'v=spf1 ip4:192.0.2.1 -all'],
      [1, 'match', 'ip4:192.0.2.1'],
      [0, 'match', 'include:inc-pass.example.com'],
    ]);
    // The deciding term is the include of the checked domain; the trace shows what matched inside.
    expect(evaluation.matched_domain).toBe('i1.example.com');
  });

  test.each([
    [{ ip: 'not-an-ip', sender: 'x@example.com' }, 'Invalid IP address'],
    [{ ip: '192.0.2.1', sender: 'no-at-sign' }, '"sender" must be an email address'],
    [{ ip: '192.0.2.1' }, 'needs a domain'],
  ])('bad input %j throws InvalidInputError', async (input, message) => {
    await expect(evaluateSpf(input, { resolver })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(message),
    });
  });
});
