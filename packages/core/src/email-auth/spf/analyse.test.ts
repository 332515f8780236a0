/** Static SPF analysis against a loopback zone through the real resolver. */
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createResolver } from '../../dns/index.js';
import type { DnsResolver } from '../../net/dns-types.js';
import { analyseSpf } from './analyse.js';

const txt = (...texts: (string | string[])[]) => ({ TXT: texts });
/** Ten includes of records with one `a` each: 10 × 2 = 20 lookups. */
const chain = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [
    `c${i}.spf.test`,
    { TXT: ['v=spf1 a -all'], A: ['93.184.216.10'] },
  ]),
);

const zone: Zone = {
  'good.test': {
    TXT: [
      'v=spf1 ip4:93.184.216.0/24 include:_spf.good.test mx -all',
      'google-site-verification=x',
    ],
    MX: [{ preference: 10, exchange: 'mx.good.test' }],
  },
  '_spf.good.test': txt('v=spf1 ip6:2a00:1450::/32 include:level2.good.test ~all'),
  'level2.good.test': txt('v=spf1 include:level3.good.test -all'),
  'level3.good.test': txt('v=spf1 ip4:93.184.217.0/24 ?all'),
  'mx.good.test': { A: ['93.184.216.25'] },
  'none.test': txt('just text'),
  'two.test': txt('v=spf1 -all', 'v=spf1 ~all'),
  'plus-all.test': txt('v=spf1 +all'),
  'neutral-all.test': txt('v=spf1 ip4:93.184.216.1 ?all'),
  'soft-all.test': txt('v=spf1 ip4:93.184.216.1 ~all'),
  'no-all.test': txt('v=spf1 ip4:93.184.216.1'),
  'ptr.test': txt('v=spf1 ptr -all'),
  'syntax.test': txt('v=spf1 ip4:93.184.216.1 ip:1.2.3.4 include: -all'),
  'over.test': txt(
    `v=spf1 ${Array.from({ length: 10 }, (_, i) => `include:c${i}.spf.test`).join(' ')} -all`,
  ),
  ...chain,
  'void.test': txt('v=spf1 a:nx1.void.test a:nx2.void.test exists:nx3.void.test -all'),
  'loop-a.test': txt('v=spf1 include:loop-b.test -all'),
  'loop-b.test': txt('v=spf1 include:loop-a.test -all'),
  'missing-inc.test': txt('v=spf1 include:nowhere.test -all'),
  'redirect.test': txt('v=spf1 redirect=_spf.redirect.test'),
  '_spf.redirect.test': txt('v=spf1 ip4:93.184.216.0/24 -all'),
  'redirect-all.test': txt('v=spf1 -all redirect=_spf.redirect.test'),
  'private.test': txt('v=spf1 ip4:10.0.0.0/8 ip4:0.0.0.0/0 -all'),
  'after-all.test': txt('v=spf1 -all include:_spf.good.test'),
  'unknown-mod.test': txt('v=spf1 -all redirekt=_spf.good.test'),
  'mx-many.test': {
    TXT: ['v=spf1 mx -all'],
    MX: Array.from({ length: 11 }, (_, i) => ({ preference: i, exchange: `m${i}.mx-many.test` })),
  },
  'mx-bare.test': {
    TXT: ['v=spf1 mx -all'],
    MX: [{ preference: 1, exchange: 'nohost.mx-bare.test' }],
  },
  'macro.test': txt('v=spf1 exists:%{i}._spf.%{d} include:_inc.%{d} -all'),
  '_inc.macro.test': txt('v=spf1 ip4:93.184.216.3 -all'),
  // One record of several character-strings (each at most 255 octets, RFC 1035 §3.3).
  'long.test': txt([
    `v=spf1 ${Array.from({ length: 12 }, (_, i) => `ip4:93.184.${i}.0/24`).join(' ')}`,
    ` ${Array.from({ length: 12 }, (_, i) => `ip4:93.185.${i}.0/24`).join(' ')}`,
    ` ${Array.from({ length: 12 }, (_, i) => `ip4:93.186.${i}.0/24`).join(' ')} -all`,
  ]),
  'broken-inc.test': txt('v=spf1 include:servfail.test -all'),
  'exp.test': txt('v=spf1 -all exp=why.exp.test'),
};

let server: DnsTestServer;
let resolver: DnsResolver;
beforeAll(async () => {
  server = await startDnsServer({
    zone,
    onQuery: (q) =>
      q.name.startsWith('servfail') || q.name.startsWith('dead') ? 'servfail' : undefined,
  });
  resolver = createResolver({
    servers: [server.address],
    attemptTimeout: 1000,
    tries: 1,
    cache: false,
  });
});
afterAll(() => server.close());

const analyse = (domain: string) => analyseSpf(domain, { resolver });
const codes = (a: { findings: { code: string }[] }) => a.findings.map((f) => f.code);

describe('analyseSpf', () => {
  test('a good record with a 3-level include chain: terms in order, lookups counted per term', async () => {
    const a = await analyse('good.test');
    expect(a.status, JSON.stringify(a.findings)).toBe('pass');
    expect(a.record).toBe('v=spf1 ip4:93.184.216.0/24 include:_spf.good.test mx -all');
    expect(a.records_found).toBe(1);
    expect(a.all).toBe('-all');
    expect(a.dns_lookups).toBe(4);
    expect(
      a.terms.map((t) => [t.depth, t.domain, t.term, t.dns_lookups, t.cumulative_lookups]),
    ).toEqual([
      [0, 'good.test', 'ip4:93.184.216.0/24', 0, 0],
      [0, 'good.test', 'include:_spf.good.test', 3, 1],
      [1, '_spf.good.test', 'ip6:2a00:1450::/32', 0, 1],
      [1, '_spf.good.test', 'include:level2.good.test', 2, 2],
      [2, 'level2.good.test', 'include:level3.good.test', 1, 3],
      [3, 'level3.good.test', 'ip4:93.184.217.0/24', 0, 3],
      [3, 'level3.good.test', '?all', 0, 3],
      [2, 'level2.good.test', '-all', 0, 3],
      [1, '_spf.good.test', '~all', 0, 3],
      [0, 'good.test', 'mx', 1, 4],
      [0, 'good.test', '-all', 0, 4],
    ]);
    expect(a.records.map((r) => [r.domain, r.via])).toEqual([
      ['good.test', null],
      ['_spf.good.test', 'include:_spf.good.test'],
      ['level2.good.test', 'include:level2.good.test'],
      ['level3.good.test', 'include:level3.good.test'],
    ]);
    // Inside an include, "all" only ends that policy.
    expect(a.terms.find((t) => t.term === '?all')?.status).toBe('info');
  });

  test.each([
    ['none.test', 'fail', 'spf_missing'],
    ['nowhere.test', 'fail', 'spf_missing'],
    ['two.test', 'fail', 'spf_multiple'],
    ['plus-all.test', 'fail', 'spf_all_pass'],
    ['neutral-all.test', 'warn', 'spf_all_neutral'],
    ['soft-all.test', 'pass', 'spf_all_softfail'],
    ['no-all.test', 'warn', 'spf_no_all'],
    ['ptr.test', 'warn', 'spf_ptr'],
    ['syntax.test', 'fail', 'spf_syntax'],
    ['over.test', 'fail', 'spf_lookup_limit'],
    ['void.test', 'fail', 'spf_void_limit'],
    ['loop-a.test', 'fail', 'spf_loop'],
    ['missing-inc.test', 'fail', 'spf_include_invalid'],
    ['redirect-all.test', 'warn', 'spf_redirect_ignored'],
    ['private.test', 'fail', 'spf_private_network'],
    ['private.test', 'fail', 'spf_wide_network'],
    ['after-all.test', 'warn', 'spf_after_all'],
    ['unknown-mod.test', 'warn', 'spf_unknown_modifier'],
    ['mx-many.test', 'fail', 'spf_mx_limit'],
    ['mx-bare.test', 'warn', 'spf_host_without_address'],
    ['long.test', 'warn', 'spf_record_size'],
    ['broken-inc.test', 'fail', 'spf_dns_error'],
  ])('%s → %s with %s', async (domain, status, code) => {
    const a = await analyse(domain);
    expect(a.status).toBe(status);
    expect(codes(a)).toContain(code);
  });

  test('syntax errors name the offending tokens', async () => {
    const a = await analyse('syntax.test');
    const invalid = a.terms.filter((t) => t.kind === 'invalid').map((t) => t.term);
    expect(invalid).toEqual(['ip:1.2.3.4', 'include:']);
    expect(a.findings.find((f) => f.code === 'spf_syntax')?.message).toContain('ip4: or ip6:');
  });

  test('the term that makes lookup number 11 is named', async () => {
    const a = await analyse('over.test');
    expect(a.dns_lookups).toBe(20);
    const failing = a.terms.filter((t) => t.status === 'fail');
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({
      term: 'include:c5.spf.test',
      domain: 'over.test',
      cumulative_lookups: 11,
    });
    expect(a.findings.find((f) => f.code === 'spf_lookup_limit')?.message).toContain(
      '"include:c5.spf.test" in the record of over.test makes DNS lookup number 11',
    );
    // Each include costs itself plus its record's "a".
    expect(a.terms.filter((t) => t.term.startsWith('include:')).map((t) => t.dns_lookups)).toEqual(
      Array(10).fill(2),
    );
  });

  test('void lookups are counted per term and the third is named', async () => {
    const a = await analyse('void.test');
    expect(a.void_lookups).toBe(3);
    expect(a.terms.filter((t) => t.void_lookup).map((t) => t.term)).toEqual([
      'a:nx1.void.test',
      'a:nx2.void.test',
      'exists:nx3.void.test',
    ]);
    expect(a.terms.find((t) => t.status === 'fail')?.term).toBe('exists:nx3.void.test');
  });

  test('a loop is reported once and not followed', async () => {
    const a = await analyse('loop-a.test');
    expect(a.records.map((r) => r.domain)).toEqual(['loop-a.test', 'loop-b.test']);
    expect(a.findings.find((f) => f.code === 'spf_loop')?.message).toContain(
      'loops back to loop-a.test',
    );
  });

  test('redirect: the final all comes from the redirect target', async () => {
    const a = await analyse('redirect.test');
    expect(a).toMatchObject({ status: 'pass', all: '-all', dns_lookups: 1 });
    expect(a.terms.map((t) => t.term)).toEqual([
      'redirect=_spf.redirect.test',
      'ip4:93.184.216.0/24',
      '-all',
    ]);
  });

  test('macro targets: %{d} is followed, client-dependent ones are not', async () => {
    const a = await analyse('macro.test');
    expect(a.terms.find((t) => t.term.startsWith('exists'))).toMatchObject({
      status: 'info',
      dns_lookups: 1,
    });
    expect(a.records.map((r) => r.domain)).toContain('_inc.macro.test');
    expect(a.dns_lookups).toBe(2);
  });

  test('exp is listed and costs nothing', async () => {
    const a = await analyse('exp.test');
    expect(a.terms.find((t) => t.name === 'exp')).toMatchObject({ status: 'info', dns_lookups: 0 });
    expect(a.dns_lookups).toBe(0);
  });

  test("the domain's own TXT lookup failing is an error, not a finding", async () => {
    await expect(analyse('dead.test')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
  });
});
