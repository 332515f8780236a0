import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DnsTestServer,
  prerequisite,
  type QueryAction,
  type QueryInfo,
  startDnsServer,
  type Zone,
} from '@netdiag/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { INVALID_IP_MESSAGE, TimeoutError, UpstreamError } from '../errors.js';
import { createMemoryCache } from '../net/cache.js';
import { createResolver } from '../net/resolver.js';
import { checkBlacklist } from './check-blacklist.js';
import { classifyAnswer, isListingCode } from './listing.js';
import { dnsblQueryName } from './query-name.js';
import { DNSBL_ZONES } from './zones.js';

const servers: DnsTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fixture where `answers(zone)` decides what each list says about `ip`. */
async function dnsbl(
  ip: string,
  answers: (zone: string) => { A?: string[]; TXT?: string[] } | undefined,
  onQuery?: (q: QueryInfo) => QueryAction,
  delayMs = 0,
) {
  const zone: Zone = {};
  for (const list of DNSBL_ZONES) {
    const entry = answers(list.zone);
    if (entry) zone[dnsblQueryName(ip, list.zone)] = { ...entry, ttl: 60 };
  }
  const server = await startDnsServer({ zone, delayMs, ...(onQuery ? { onQuery } : {}) });
  servers.push(server);
  const resolver = createResolver({
    servers: [server.address],
    attemptTimeout: 1000,
    cache: false,
  });
  return { server, resolver };
}

describe('the 12 lists', () => {
  test('the table has the 12 zones of the issue, unique, none of them dead', () => {
    expect(DNSBL_ZONES.map((z) => z.zone)).toEqual([
      'zen.spamhaus.org',
      'bl.spamcop.net',
      'b.barracudacentral.org',
      'dnsbl-1.uceprotect.net',
      'psbl.surriel.com',
      'z.mailspike.net',
      'dnsbl.dronebl.org',
      'bl.blocklist.de',
      'all.s5h.net',
      'spam.spamrats.com',
      'bl.0spam.org',
      'dnsbl.zapbl.net',
    ]);
    expect(DNSBL_ZONES.some((z) => /sorbs|manitu/.test(z.zone))).toBe(false);
  });
});

describe('checkBlacklist', () => {
  test('127.0.0.2 (the RFC 5782 test point) is listed everywhere, with codes and reasons', async () => {
    const { resolver } = await dnsbl('127.0.0.2', (zone) => ({
      A: ['127.0.0.2'],
      TXT: [`listed in ${zone}`],
    }));
    const result = await checkBlacklist('127.0.0.2', { resolver, cache: false });
    expect(result).toMatchObject({
      ip: '127.0.0.2',
      total_lists: 12,
      total_checked: 12,
      unavailable_count: 0,
      skipped_count: 0,
      listed_count: 12,
      clean: false,
      status: 'LISTED',
    });
    const zen = result.results[0];
    expect(zen).toEqual({
      name: 'Spamhaus ZEN',
      zone: 'zen.spamhaus.org',
      listed: true,
      status: 'listed',
      response: ['127.0.0.2'],
      reason: 'listed in zen.spamhaus.org',
      meaning: ['SBL: Spamhaus Blocklist'],
    });
  });

  test('an address no list knows is CLEAN and every list is checked', async () => {
    const { resolver, server } = await dnsbl('192.0.2.99', () => undefined);
    const result = await checkBlacklist('192.0.2.99', { resolver, cache: false });
    expect(result).toMatchObject({
      total_checked: 12,
      listed_count: 0,
      unavailable_count: 0,
      clean: true,
      status: 'CLEAN',
    });
    expect(result.results.every((r) => r.status === 'not_listed' && !r.listed)).toBe(true);
    // One A query per list and nothing else: no TXT reason and no control query (RFC 5782 §5)
    // for an address that is not listed.
    expect(server.queries.some((q) => q.type === 'TXT')).toBe(false);
    expect(server.queries.map((q) => q.name).sort()).toEqual(
      DNSBL_ZONES.map((z) => `99.2.0.192.${z.zone}`).sort(),
    );
  });

  test.each([
    ['127.255.255.254', /open resolver/],
    ['127.255.255.252', /typing error/],
    ['127.255.255.255', /excessive/],
    ['127.0.0.1', /never a listing/],
    ['192.0.2.1', /outside 127/],
  ])('an answer of %s is an error, not a listing', async (code, meaning) => {
    const { resolver } = await dnsbl('198.51.100.7', (zone) =>
      zone === 'zen.spamhaus.org' ? { A: [code] } : undefined,
    );
    const result = await checkBlacklist('198.51.100.7', { resolver, cache: false });
    const zen = result.results.find((r) => r.zone === 'zen.spamhaus.org');
    expect(zen).toMatchObject({ status: 'error', listed: false, response: [code] });
    expect(zen?.meaning[0]).toMatch(meaning);
    expect(result).toMatchObject({
      listed_count: 0,
      unavailable_count: 1,
      total_checked: 11,
      status: 'CLEAN',
    });
  });

  test('several codes are all reported (ZEN SBL + XBL)', async () => {
    const { resolver } = await dnsbl('198.51.100.8', (zone) =>
      zone === 'zen.spamhaus.org' ? { A: ['127.0.0.2', '127.0.0.4'] } : undefined,
    );
    const result = await checkBlacklist('198.51.100.8', { resolver, cache: false });
    expect(result.results[0]).toMatchObject({
      status: 'listed',
      response: ['127.0.0.2', '127.0.0.4'],
      meaning: ['SBL: Spamhaus Blocklist', 'XBL: exploited or infected host'],
      reason: '',
    });
  });

  test('a list that never answers is a timeout, bounded by the one deadline', async () => {
    const { resolver } = await dnsbl(
      '198.51.100.9',
      (zone) => (zone === 'bl.spamcop.net' ? undefined : { A: ['127.0.0.2'] }),
      (q) => (q.name.endsWith('.bl.spamcop.net') ? 'drop' : undefined),
    );
    const started = Date.now();
    const result = await checkBlacklist('198.51.100.9', {
      resolver,
      cache: false,
      timeout: 400,
    });
    expect(Date.now() - started).toBeLessThan(1200);
    const spamcop = result.results.find((r) => r.zone === 'bl.spamcop.net');
    expect(spamcop).toMatchObject({ status: 'timeout', listed: false });
    expect(result).toMatchObject({ unavailable_count: 1, listed_count: 11, status: 'LISTED' });
  });

  test('a SERVFAIL from a list is an error', async () => {
    const { resolver } = await dnsbl(
      '198.51.100.10',
      () => undefined,
      (q) => (q.name.endsWith('.psbl.surriel.com') ? 'servfail' : undefined),
    );
    const result = await checkBlacklist('198.51.100.10', { resolver, cache: false });
    expect(result.results.find((r) => r.zone === 'psbl.surriel.com')).toMatchObject({
      status: 'error',
      meaning: ["the list's DNS answered SERVFAIL"],
    });
  });

  test('all lists are asked at once: the time is about one round trip, not twelve', async () => {
    const { resolver } = await dnsbl('192.0.2.99', () => undefined, undefined, 100);
    const started = Date.now();
    await checkBlacklist('192.0.2.99', { resolver, cache: false });
    expect(Date.now() - started).toBeLessThan(600);
  });

  test('IPv6: nibble queries on the IPv6 lists, skipped on the rest', async () => {
    const ip = '2001:db8::1';
    const { resolver, server } = await dnsbl(ip, (zone) =>
      zone === 'bl.blocklist.de' ? { A: ['127.0.0.2'] } : undefined,
    );
    const result = await checkBlacklist(ip, { resolver, cache: false });
    const v6 = DNSBL_ZONES.filter((z) => z.ipv6).map((z) => z.zone);
    expect(v6).toEqual(['zen.spamhaus.org', 'bl.blocklist.de', 'all.s5h.net']);
    for (const r of result.results) {
      expect(r.status).toBe(
        r.zone === 'bl.blocklist.de' ? 'listed' : v6.includes(r.zone) ? 'not_listed' : 'skipped',
      );
    }
    expect(result).toMatchObject({
      ip,
      total_checked: 3,
      skipped_count: 9,
      unavailable_count: 0,
      listed_count: 1,
    });
    const asked = new Set(server.queries.filter((q) => q.type === 'A').map((q) => q.name));
    expect(asked.has(dnsblQueryName(ip, 'zen.spamhaus.org'))).toBe(true);
    expect([...asked].some((n) => n.endsWith('.bl.spamcop.net'))).toBe(false);
  });

  test('a wildcarded zone (it also lists 127.0.0.1) is an error, not a listing', async () => {
    const server = await startDnsServer({
      zone: { '*.dnsbl.zapbl.net': { A: ['127.0.0.2'] } },
    });
    servers.push(server);
    const resolver = createResolver({ servers: [server.address] });
    const result = await checkBlacklist('203.0.113.5', { resolver, cache: false });
    const zap = result.results.find((r) => r.zone === 'dnsbl.zapbl.net');
    expect(zap).toMatchObject({ status: 'error', listed: false });
    expect(zap?.meaning[0]).toMatch(/RFC 5782/);
    expect(result.listed_count).toBe(0);
  });

  test('results are cached per IP for 10 minutes; timeouts are not cached', async () => {
    let now = 0;
    const cache = createMemoryCache({ now: () => now });
    const { resolver, server } = await dnsbl('192.0.2.50', () => undefined);
    await checkBlacklist('192.0.2.50', { resolver, cache });
    const asked = server.queries.length;
    now += 9 * 60_000;
    const again = await checkBlacklist('192.0.2.50', { resolver, cache });
    expect(server.queries.length).toBe(asked);
    expect(again.status).toBe('CLEAN');
    now += 61_000;
    await checkBlacklist('192.0.2.50', { resolver, cache });
    expect(server.queries.length).toBeGreaterThan(asked);

    const slow = await dnsbl(
      '192.0.2.51',
      () => undefined,
      (q) => (q.name.includes('spamcop') ? 'drop' : undefined),
    );
    const first = await checkBlacklist('192.0.2.51', {
      resolver: slow.resolver,
      cache,
      timeout: 200,
    });
    expect(first.unavailable_count).toBe(1);
    const count = slow.server.queries.length;
    await checkBlacklist('192.0.2.51', { resolver: slow.resolver, cache, timeout: 200 });
    expect(slow.server.queries.length).toBeGreaterThan(count);
  });

  test.each(['', 'example.com', '1.2.3', '1.2.3.4.5', '::g'])(
    'invalid IP %j gets the SPEC message',
    async (ip) => {
      await expect(checkBlacklist(ip, { cache: false })).rejects.toThrow(INVALID_IP_MESSAGE);
    },
  );

  test("the caller's signal aborts the whole check", async () => {
    const { resolver } = await dnsbl(
      '192.0.2.60',
      () => undefined,
      () => 'drop',
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      checkBlacklist('192.0.2.60', { resolver, cache: false, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('checkBlacklist when lists do not answer (no CLEAN without a list behind it)', () => {
  const names = DNSBL_ZONES.map((z) => z.name);

  test('every list dropped: TimeoutError naming the lists, never CLEAN', async () => {
    const { resolver } = await dnsbl(
      '192.0.2.70',
      () => undefined,
      () => 'drop',
    );
    const started = Date.now();
    const error = await checkBlacklist('192.0.2.70', {
      resolver,
      cache: false,
      timeout: 300,
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', upstream: 'dnsbl', timeoutMs: 300 });
    const message = (error as Error).message;
    expect(message).toMatch(/^\[netdiag\] \[dnsbl\] none of the 12 DNSBLs answered within 300 ms/);
    for (const name of names) expect(message).toContain(name);
  });

  test('every list SERVFAIL: UpstreamError naming each list and its reason', async () => {
    const { resolver } = await dnsbl(
      '192.0.2.71',
      () => undefined,
      () => 'servfail',
    );
    const error = await checkBlacklist('192.0.2.71', { resolver, cache: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'dnsbl' });
    const message = (error as Error).message;
    expect(message).toContain('none of the 12 DNSBLs gave a usable answer');
    expect(message).toContain("Spamhaus ZEN: error (the list's DNS answered SERVFAIL)");
    for (const name of names) expect(message).toContain(name);
  });

  test('no list answered, some timed out and some failed: UpstreamError (502, not 504)', async () => {
    const { resolver } = await dnsbl(
      '192.0.2.72',
      (zone) => (zone === 'zen.spamhaus.org' ? { A: ['127.255.255.254'] } : undefined),
      (q) =>
        q.name.endsWith('.bl.spamcop.net')
          ? 'servfail'
          : q.name.includes('spamhaus')
            ? undefined
            : 'drop',
    );
    const error = await checkBlacklist('192.0.2.72', {
      resolver,
      cache: false,
      timeout: 300,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'dnsbl' });
    const message = (error as Error).message;
    expect(message).toContain('Spamhaus ZEN: error (error: query via a public/open resolver');
    expect(message).toContain("SpamCop: error (the list's DNS answered SERVFAIL)");
    expect(message).toContain('PSBL: timeout (no answer before the deadline)');
  });

  test('a mix: the verdict covers the lists that answered, the others are named', async () => {
    const { resolver } = await dnsbl(
      '192.0.2.73',
      () => undefined,
      (q) =>
        q.name.endsWith('.bl.spamcop.net')
          ? 'drop'
          : q.name.endsWith('.psbl.surriel.com')
            ? 'servfail'
            : undefined,
    );
    const cache = createMemoryCache();
    const result = await checkBlacklist('192.0.2.73', { resolver, cache, timeout: 300 });
    expect(result).toMatchObject({
      total_lists: 12,
      total_checked: 10,
      unavailable_count: 2,
      listed_count: 0,
      clean: true,
      status: 'CLEAN',
    });
    expect(result.results.find((r) => r.zone === 'bl.spamcop.net')).toMatchObject({
      status: 'timeout',
      meaning: ['no answer before the deadline'],
    });
    expect(result.results.find((r) => r.zone === 'psbl.surriel.com')).toMatchObject({
      status: 'error',
      meaning: ["the list's DNS answered SERVFAIL"],
    });
    // A partial answer is not kept: the next call asks again.
    expect(await cache.get(`dnsbl:${DNSBL_ZONES.map((z) => z.zone).join(',')}:192.0.2.73`)).toBe(
      undefined,
    );
  });

  test('IPv6: the three IPv6 lists all silent is a timeout; the skipped ones do not count', async () => {
    const ip = '2001:db8::70';
    const { resolver } = await dnsbl(
      ip,
      () => undefined,
      () => 'drop',
    );
    await expect(
      checkBlacklist(ip, { resolver, cache: false, timeout: 300 }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      message: expect.stringContaining(
        'none of the 3 DNSBLs answered within 300 ms (Spamhaus ZEN, blocklist.de, s5h.net)',
      ),
    });
  });

  test('IPv6 on lists that all lack IPv6 support: InvalidInputError, nothing asked', async () => {
    const { resolver, server } = await dnsbl('2001:db8::71', () => undefined);
    const zones = DNSBL_ZONES.filter((z) => !z.ipv6);
    await expect(
      checkBlacklist('2001:db8::71', { resolver, cache: false, zones }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', param: 'ip' });
    expect(server.queries).toEqual([]);
  });
});

// --- Conformance with the RFC 5782 / Spamhaus facts in the shared corpus ---

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const corpusFile = join(
  process.env['NETDIAG_CORPORA'] ?? join(repo, '..', 'shared', 'corpora'),
  'dnsbl',
  'dnsbl-facts.json',
);

interface Facts {
  rfc5782: {
    test_cases: { kind: string; address?: string; expected: string }[];
    query_name_cases: { ip: string; zone: string; query_name: string }[];
  };
  spamhaus: { return_codes: { code: string; zones: string[]; kind: string }[] };
}

if (
  !prerequisite(
    'DNSBL corpus',
    existsSync(corpusFile),
    'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
  )
) {
  describe.skip(`DNSBL corpus not found at ${corpusFile} (set NETDIAG_CORPORA)`, () => {
    test('skipped', () => {});
  });
} else {
  const facts = JSON.parse(readFileSync(corpusFile, 'utf8')) as Facts;

  describe('RFC 5782 facts (shared corpus)', () => {
    // An emptied or truncated corpus must fail, not shrink the suites below to nothing.
    test('the corpus holds 4 query-name cases, 6 test points and 24 Spamhaus return codes', () => {
      expect([
        facts.rfc5782.query_name_cases.length,
        facts.rfc5782.test_cases.length,
        facts.spamhaus.return_codes.length,
      ]).toEqual([4, 6, 24]);
    });

    test.each(facts.rfc5782.query_name_cases)('query name of $ip in $zone', (c) => {
      expect(dnsblQueryName(c.ip, c.zone)).toBe(c.query_name);
    });

    /** A list that follows RFC 5782 §5: lists its test points and nothing else. */
    async function conformingList() {
      const zone: Zone = {};
      for (const list of DNSBL_ZONES) {
        zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'] };
        zone[dnsblQueryName('::ffff:7f00:2', list.zone)] = { A: ['127.0.0.2'] };
      }
      const server = await startDnsServer({ zone });
      servers.push(server);
      return createResolver({ servers: [server.address] });
    }

    test.each(facts.rfc5782.test_cases.filter((c) => c.kind !== 'domain'))(
      '$kind test point $address is $expected',
      async (c) => {
        const resolver = await conformingList();
        const result = await checkBlacklist(c.address as string, { resolver, cache: false });
        expect(result.status).toBe(c.expected === 'listed' ? 'LISTED' : 'CLEAN');
        expect(result.unavailable_count).toBe(0);
      },
    );
  });

  describe('Spamhaus return codes (shared corpus)', () => {
    const expand = (code: string): string[] => {
      const range = /^(\d+\.\d+\.\d+\.)(\d+)-\d+\.\d+\.\d+\.(\d+)$/.exec(code);
      if (!range) return [code];
      const out: string[] = [];
      for (let i = Number(range[2]); i <= Number(range[3]); i++) out.push(`${range[1]}${i}`);
      return out;
    };
    const ipCodes = facts.spamhaus.return_codes
      .filter((c) => c.zones.includes('zen') || c.zones.includes('any'))
      .flatMap((c) => expand(c.code).map((code) => ({ code, kind: c.kind })));

    test.each(ipCodes)('$code ($kind)', ({ code, kind }) => {
      const listed = kind.startsWith('listed');
      expect(isListingCode(code)).toBe(listed);
      expect(classifyAnswer([code])).toBe(listed ? 'listed' : 'error');
    });

    test('every ZEN listing code has a documented meaning in the zone table', () => {
      const zen = DNSBL_ZONES[0];
      for (const { code } of ipCodes) expect(zen?.codes[code]).toBeTruthy();
    });
  });
}
