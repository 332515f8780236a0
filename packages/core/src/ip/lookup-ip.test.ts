import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { INVALID_IP_MESSAGE } from '../errors.js';
import { bulkLookup } from './bulk-lookup.js';
import { IP_DATA_FILE } from './data/ip-data-file.js';
import { findIpDataFile, loadIpDatasets } from './datasets.js';
import { lookupIp } from './lookup-ip.js';
import { parseTorExitList } from './tor-exit-list.js';

const cacheDir = tempDir('netdiag-ip-test-');
const datasets = await loadIpDatasets({ cacheDir });

describe('lookupIp on the embedded data', () => {
  test.each([
    ['8.8.8.8', 15169, 'Google LLC', 'US'],
    ['1.1.1.1', 13335, 'Cloudflare, Inc.', 'AU'],
    ['2001:4860:4860::8888', 15169, 'Google LLC', 'CA'],
    ['2606:4700:4700::1111', 13335, 'Cloudflare, Inc.', 'CA'],
  ])('%s → AS%i %s, %s', async (ip, asn, name, country) => {
    const info = await lookupIp(ip, { datasets });
    expect(info.network).toMatchObject({ asn, as_name: name, isp: name, org: name });
    expect(info.location.country).toBe(country);
    expect(typeof info.location.latitude).toBe('number');
    expect(info.location.timezone).toMatch(/^[A-Z][a-z]+\//);
    expect(info.location.country_name.length).toBeGreaterThan(2);
    expect(info.bogon).toBe(false);
  });

  test('8.8.8.8 in detail: derived fields and the hosting signal with its evidence', async () => {
    const info = await lookupIp('8.8.8.8', { datasets });
    expect(info.location).toMatchObject({
      country_name: 'United States',
      continent: 'NA',
      is_eu: false,
      postal_code: '',
      timezone: 'America/Los_Angeles',
    });
    expect(info.privacy).toMatchObject({ type: 'datacenter', is_hosting: true, is_tor: false });
    // Google's published range decides (a range beats an AS match); the AS lists agree.
    expect(info.privacy.provider).toBe('Google');
    expect(info.privacy.signals[0]).toMatchObject({
      signal: 'hosting',
      source: 'range-list',
      dataset: 'lord-alfred/ipranges',
    });
    const curated = info.privacy.signals.find((s) => s.dataset === 'data/asn-hosting.tsv');
    expect(curated).toMatchObject({ signal: 'hosting', source: 'asn-list', version: 'curated' });
  });

  test.each([
    ['10.1.2.3', '10.0.0.0/8'],
    ['192.168.0.1', '192.168.0.0/16'],
    ['127.0.0.1', '127.0.0.0/8'],
    ['::1', '::1/128'],
    ['fe80::1', 'fe80::/10'],
    ['2001:db8::1', '2001:db8::/32'],
    ['::ffff:10.0.0.1', '10.0.0.0/8'],
  ])('bogon %s → empty data, bogon: true (%s)', async (ip, cidr) => {
    const info = await lookupIp(ip, { datasets });
    expect(info.bogon).toBe(true);
    expect(info.bogon_reason).toContain(cidr);
    expect(info.location.country).toBe('');
    expect(info.location.latitude).toBeNull();
    expect(info.network.asn).toBeNull();
  });

  test('IPv4-mapped, NAT64 and 6to4 forms are looked up by their IPv4 host', async () => {
    expect((await lookupIp('::ffff:8.8.8.8', { datasets })).ip).toBe('8.8.8.8');
    const sixToFour = await lookupIp('2002:808:808::1', { datasets });
    expect(sixToFour).toMatchObject({ ip: '2002:808:808::1', version: 6 });
    expect(sixToFour.network.asn).toBe(15169);
  });

  test.each(['999.1.1.1', 'example.com', '', '1.2.3', 'fe80::1%eth0', 42 as unknown as string])(
    'invalid %j → the SPEC message',
    async (ip) => {
      await expect(lookupIp(ip, { datasets })).rejects.toThrow(INVALID_IP_MESSAGE);
      await expect(lookupIp(ip)).rejects.toThrow(INVALID_IP_MESSAGE);
    },
  );

  test('an aborted signal rejects', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      lookupIp('8.8.8.8', { datasets, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });

  test('Tor exits are proxies with tor-exit-list evidence; other addresses are untouched', async () => {
    datasets.setTorExitList(
      parseTorExitList('# exits\n8.8.4.4\n2001:4860:4860::8844\nnot-an-ip\n'),
    );
    try {
      const tor = await lookupIp('8.8.4.4', { datasets });
      expect(tor.privacy).toMatchObject({ is_tor: true, is_proxy: true, type: 'vpn' });
      expect(tor.privacy.signals.map((s) => s.source)).toContain('tor-exit-list');
      expect((await lookupIp('2001:4860:4860::8844', { datasets })).privacy.is_tor).toBe(true);
      expect((await lookupIp('8.8.8.8', { datasets })).privacy.is_tor).toBe(false);
    } finally {
      datasets.setTorExitList(undefined);
    }
  });

  test('the installed data is read where it lies: nothing written, nothing decoded at start', async () => {
    const empty = tempDir('netdiag-ip-test-empty-');
    const fresh = await loadIpDatasets({ cacheDir: empty });
    expect(fresh.info.file).toMatch(/ip-data[/\\]data[/\\]netdiag-ip-data\.bin$/);
    expect(fresh.info.geo).toMatch(/^DB-IP City Lite/);
    expect(readdirSync(empty)).toEqual([]);
    for (const ip of ['1.1.1.1', '8.8.8.8', '2001:4860:4860::8888', '81.2.69.160']) {
      expect(fresh.lookup(ip)).toEqual(datasets.lookup(ip));
    }
    fresh.close();
  });

  test('a copy of the data in the cache directory (netdiag data update) is read first', async () => {
    const dir = tempDir('netdiag-ip-test-copy-');
    const installed = findIpDataFile({ cacheDir: false }) as string;
    copyFileSync(installed, join(dir, IP_DATA_FILE));
    const fromCopy = await loadIpDatasets({ cacheDir: dir });
    expect(fromCopy.info.file).toBe(join(dir, IP_DATA_FILE));
    fromCopy.close();
  });

  test('a copy in the cache directory this version cannot read is refused, saying what to do', async () => {
    const dir = tempDir('netdiag-ip-test-old-');
    writeFileSync(join(dir, IP_DATA_FILE), 'an IP data file of another format');
    await expect(loadIpDatasets({ cacheDir: dir })).rejects.toThrow(
      /built by another netdiag version .*run "netdiag data update" again, or delete the file/,
    );
  });

  test('a folder without the data file is refused, naming the folder', async () => {
    const dir = tempDir('netdiag-ip-test-none-');
    await expect(loadIpDatasets({ ipDataDir: dir, cacheDir: false })).rejects.toThrow(
      `no readable IP data file in ${dir}`,
    );
  });
});

describe('bulkLookup (CONTRACT §6)', () => {
  test('valid distinct addresses in order of first appearance; invalid entries in errors', async () => {
    const result = await bulkLookup(
      ['8.8.8.8', 'nope', '1.1.1.1', '::ffff:8.8.8.8', 7, '10.0.0.1'],
      {
        datasets,
      },
    );
    expect(result.results.map((r) => r.ip)).toEqual(['8.8.8.8', '1.1.1.1', '10.0.0.1']);
    expect(result.errors).toEqual([
      { input: 'nope', error: INVALID_IP_MESSAGE },
      { input: '7', error: 'Each entry must be a string holding an IPv4 or IPv6 address' },
    ]);
  });

  test.each([
    [[], /empty/],
    [Array.from({ length: 51 }, () => '8.8.8.8'), /51 entries: at most 50/],
    [['x', 'y'], /Invalid IP address format/],
  ])('%#: rejected', async (ips, message) => {
    await expect(bulkLookup(ips, { datasets })).rejects.toThrow(message);
  });

  test('entries too deep or cyclic to print are reported, bounded, without throwing', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const long = { a: 'x'.repeat(5000) };
    const result = await bulkLookup(['8.8.8.8', deep, cyclic, long], { datasets });
    expect(result.results.map((r) => r.ip)).toEqual(['8.8.8.8']);
    expect(result.errors.map((e) => e.input)).toEqual([
      '[array]',
      '[object]',
      `${JSON.stringify(long).slice(0, 200)}…`,
    ]);
  });

  test('maxIps lifts the limit (the CLI batches without the 50 cap)', async () => {
    const ips = Array.from({ length: 300 }, (_, i) => `8.8.${i >> 8}.${i & 255}`);
    const result = await bulkLookup(ips, { datasets, maxIps: Number.POSITIVE_INFINITY });
    expect(result.results).toHaveLength(300);
  });

  test('seen carries duplicates across batches; a batch of only repeats is not an error', async () => {
    const seen = new Set<string>();
    const first = await bulkLookup(['8.8.8.8', '1.1.1.1'], { datasets, seen });
    expect(first.results.map((r) => r.ip)).toEqual(['8.8.8.8', '1.1.1.1']);
    const second = await bulkLookup(['::ffff:1.1.1.1', '9.9.9.9', 'x'], { datasets, seen });
    expect(second.results.map((r) => r.ip)).toEqual(['9.9.9.9']);
    expect(second.errors.map((e) => e.input)).toEqual(['x']);
    const repeats = await bulkLookup(['8.8.8.8'], { datasets, seen });
    expect(repeats.results).toEqual([]);
    expect([...seen]).toEqual(['8.8.8.8', '1.1.1.1', '9.9.9.9']);
    await expect(bulkLookup(['x'], { datasets, seen })).rejects.toThrow(/Invalid IP address/);
  });
});
