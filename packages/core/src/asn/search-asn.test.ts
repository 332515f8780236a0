import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { INVALID_IP_MESSAGE } from '../errors.js';
import { loadIpDatasets } from '../ip/datasets.js';
import { loadSignalLists } from '../ip/privacy/signal-lists.js';
import { searchAsn } from './search-asn.js';

const datasets = await loadIpDatasets({ cacheDir: tempDir('netdiag-asn-') });

describe('searchAsn', () => {
  test('an IP gives its origin AS and the announced range', async () => {
    const r = await searchAsn('8.8.8.8', { datasets });
    expect(r).toMatchObject({ type: 'ip', asn: 15169, name: 'Google LLC', prefix: '8.8.8.0/24' });
  });

  test('an IPv6 address gives its AS and a prefix holding it', async () => {
    const r = await searchAsn('2606:4700:4700::1111', { datasets });
    expect(r).toMatchObject({ type: 'ip', asn: 13335 });
    expect(r.type === 'ip' && r.prefix.startsWith('2606:4700:')).toBe(true);
  });

  test('a bogon answers without an AS', async () => {
    expect(await searchAsn('192.168.1.1', { datasets })).toMatchObject({
      bogon: true,
      asn: null,
      range: null,
    });
  });

  test.each(['AS15169', 'as15169', '15169'])('%s gives the holder and its prefixes', async (q) => {
    const r = await searchAsn(q, { datasets });
    if (r.type !== 'asn') throw new Error('expected an AS result');
    expect(r.name).toBe('Google LLC');
    expect(r.prefixes.ipv4).toContain('8.8.8.0/24');
    expect(r.ipv4_prefix_count).toBe(r.prefixes.ipv4.length);
    expect(r.ipv6_prefix_count).toBeGreaterThan(0);
  });

  test('an unknown AS is NOT_FOUND', async () => {
    await expect(searchAsn('AS4294967295', { datasets })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test('names: exact before prefix before word, case-insensitive, at most the limit', async () => {
    const r = await searchAsn('cloudflare, inc.', { datasets });
    if (r.type !== 'name') throw new Error('expected a name result');
    expect(r.results[0]).toMatchObject({ asn: 13335, match: 'exact' });
    const google = await searchAsn('GOOGLE', { datasets, limit: 3 });
    if (google.type !== 'name') throw new Error('expected a name result');
    expect(google.results).toHaveLength(3);
    expect(google.total_matches).toBeGreaterThan(3);
    const ranks = { exact: 0, prefix: 1, word: 2 };
    const order = google.results.map((m) => ranks[m.match]);
    expect(order).toEqual([...order].sort());
    const word = await searchAsn('tencent computer', { datasets });
    expect(word.type === 'name' && word.results.some((m) => m.match === 'word')).toBe(true);
  });

  test.each(['1.2.3.999', '2001:db8::g'])('%s is an invalid IP, not a name', async (q) => {
    await expect(searchAsn(q, { datasets })).rejects.toThrow(INVALID_IP_MESSAGE);
  });

  test.each(['', 'x', 'AS99999999999'])('%j is rejected with a clear message', async (q) => {
    await expect(searchAsn(q, { datasets })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('curated privacy lists', () => {
  const lists = loadSignalLists();
  test.each(Object.entries(lists.lists))(
    'every AS in the %s list is in the ASN data',
    (_, list) => {
      const known = new Set(Array.from(datasets.asn.data.entryAsn));
      const missing = [...list.keys()].filter((asn) => !known.has(asn));
      expect(missing).toEqual([]);
    },
  );
  test('every entry has a reason and keywords match whole words only', () => {
    for (const list of Object.values(lists.lists)) {
      for (const entry of list.values()) expect(entry.reason.length).toBeGreaterThan(10);
    }
    const cloud = lists.keywords.find((k) => k.keyword === 'cloud');
    expect(cloud?.pattern.test('Example Cloud Ltd')).toBe(true);
    expect(cloud?.pattern.test('Cloudsurf Networks')).toBe(false);
  });
  test.each([
    ['1.1.1.1', { is_hosting: true, type: 'datacenter' }],
    ['185.213.154.1', {}],
  ])('%s classification', (ip, expected) => {
    expect(datasets.lookup(ip).privacy).toMatchObject(expected);
  });
  test('keyword and default evidence', () => {
    const signal = (asn: number) => datasets.privacyOf(datasets.asn.data.entryAsn.indexOf(asn));
    expect(signal(7922)).toMatchObject({ is_residential: true, type: 'residential' });
    expect(signal(7922).signals[0]?.source).toBe('isp-list');
    expect(signal(21928)).toMatchObject({ is_mobile: true, is_residential: false });
    expect(signal(39351)).toMatchObject({ is_vpn: true, type: 'vpn' });
    expect(signal(36183)).toMatchObject({ is_proxy: true, type: 'vpn' });
  });
});
