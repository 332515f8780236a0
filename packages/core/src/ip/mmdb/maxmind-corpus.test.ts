/**
 * Conformance against MaxMind's own test databases (maxmind/MaxMind-DB @2f18851, in
 * ../shared/corpora/maxmind-db): every expected lookup of expected-lookups.json through our
 * tree walk + record decoding, the City and ASN databases through `lookupIp`, and every
 * broken database must fail with a clear `MmdbFormatError`, never a crash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { createAddressParts, parseAddressInto } from '../address.js';
import { loadIpDatasets } from '../datasets.js';
import { MmdbDatabase, MmdbFormatError } from './database.js';

const corpora =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const root = join(corpora, 'maxmind-db');
const present = prerequisite(
  'MaxMind DB corpus',
  existsSync(join(root, 'expected-lookups.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

interface Case {
  ip: string;
  expected: unknown;
  expected_prefix_len?: number | null;
  alias_of?: string;
}
interface DbCases {
  cases: Case[];
  ipv4_alias_cases?: Case[];
  not_found_cases?: Case[];
}
interface Expected {
  databases: Record<string, DbCases>;
  synthetic_databases: Record<string, DbCases>;
  error_cases: { cases: { db: string; ip: string; expected: unknown }[] };
}

const expected: Expected | undefined = present
  ? (JSON.parse(readFileSync(join(root, 'expected-lookups.json'), 'utf8')) as Expected)
  : undefined;

const parts = createAddressParts();

/** Walks our tree for `ip`; returns the decoded record and the prefix length. */
function find(db: MmdbDatabase, ip: string): { record: unknown; prefix: number } {
  if (!parseAddressInto(ip, parts)) throw new Error(`bad test ip ${ip}`);
  // The corpus looks up "::ffff:a.b.c.d" as an IPv6 address (through the tree's alias); our
  // parser turns it into IPv4, so rebuild the IPv6 words for that case.
  const asV6 = ip.includes(':');
  const pointer = !asV6
    ? db.findV4(parts.v4)
    : parts.version === 4
      ? db.findV6(0, 0, 0xffff, parts.v4)
      : db.findV6(parts.w0, parts.w1, parts.w2, parts.w3);
  return { record: pointer === 0 ? null : db.record(pointer), prefix: db.prefixLength };
}

/** Deep equality with the corpus conventions: floats 1e-6 relative, bytes hex, big ints as strings. */
function same(actual: unknown, want: unknown): boolean {
  if (want === null || want === undefined) return actual === want;
  if (typeof want === 'number') {
    if (typeof actual === 'bigint') return actual === BigInt(want);
    if (typeof actual !== 'number') return false;
    return actual === want || Math.abs(actual - want) <= 1e-6 * Math.max(1, Math.abs(want));
  }
  if (typeof want === 'string') {
    if (typeof actual === 'bigint') return actual.toString() === want;
    if (Buffer.isBuffer(actual)) return actual.toString('hex') === want.toLowerCase();
    if (want === 'Infinity') return actual === Number.POSITIVE_INFINITY;
    return actual === want;
  }
  if (typeof want === 'boolean') return actual === want;
  if (Array.isArray(want)) {
    return (
      Array.isArray(actual) &&
      actual.length === want.length &&
      want.every((w, i) => same(actual[i], w))
    );
  }
  if (typeof want === 'object') {
    if (typeof actual !== 'object' || actual === null || Buffer.isBuffer(actual)) return false;
    const a = actual as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    const keys = Object.keys(w);
    return keys.length === Object.keys(a).length && keys.every((k) => same(a[k], w[k]));
  }
  return false;
}

const openLazy = (file: string) => new MmdbDatabase(readFileSync(join(root, file)), 'lazy');

describe.skipIf(!present)('MaxMind DB corpus: every expected lookup', () => {
  const all = { ...expected?.databases, ...expected?.synthetic_databases };
  test.each(Object.keys(all))('%s', (file) => {
    const db = openLazy(file);
    const cases = all[file] as DbCases;
    let checked = 0;
    const failures: string[] = [];
    for (const c of [
      ...cases.cases,
      ...(cases.ipv4_alias_cases ?? []),
      ...(cases.not_found_cases ?? []),
    ]) {
      const { record, prefix } = find(db, c.ip);
      if (!same(record, c.expected)) failures.push(`${c.ip}: record ${JSON.stringify(record)}`);
      if (typeof c.expected_prefix_len === 'number' && prefix !== c.expected_prefix_len) {
        failures.push(`${c.ip}: prefix ${prefix} != ${c.expected_prefix_len}`);
      }
      checked++;
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });

  test('the corpus holds at least the 11,322 documented lookups', () => {
    const total = Object.values(all).reduce(
      (n, c) =>
        n + c.cases.length + (c.ipv4_alias_cases?.length ?? 0) + (c.not_found_cases?.length ?? 0),
      0,
    );
    expect(total).toBeGreaterThanOrEqual(11_322);
  });
});

describe.skipIf(!present)('MaxMind DB corpus: broken databases', () => {
  const cases = expected?.error_cases.cases ?? [];
  // Two files are listed because libmaxminddb once read one byte past their end; their
  // structure is valid (an empty map/array as the last metadata value), and a bounds-checked
  // reader opens them correctly: see docs/ip-intelligence.md.
  const valid = new Set([
    'bad-data/libmaxminddb/libmaxminddb-empty-array-last-in-metadata.mmdb',
    'bad-data/libmaxminddb/libmaxminddb-empty-map-last-in-metadata.mmdb',
    'bad-data/libmaxminddb/libmaxminddb-uint64-max-epoch.mmdb',
  ]);
  const broken = [...new Set(cases.map((c) => c.db))].filter((db) => !valid.has(db));

  test('the corpus holds 27 error cases over 25 files (21 + 14 databases with lookups)', () => {
    expect([cases.length, new Set(cases.map((c) => c.db)).size]).toEqual([27, 25]);
    expect([
      Object.keys(expected?.databases ?? {}).length,
      Object.keys(expected?.synthetic_databases ?? {}).length,
    ]).toEqual([21, 14]);
  });

  test.each(broken)('%s fails to open with a clear error (full verification)', (file) => {
    let error: unknown;
    try {
      new MmdbDatabase(readFileSync(join(root, file)), 'full');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MmdbFormatError);
    expect((error as Error).message).toMatch(/\S+.{10,}/);
  });

  test.each(cases.filter((c) => /^\d|:/.test(c.ip)))(
    'lazy mode: $db $ip → $expected',
    ({ db, ip, expected: want }) => {
      let opened: MmdbDatabase;
      try {
        opened = openLazy(db);
      } catch (error) {
        // Broken beyond the record level: caught at open, as allowed ("may be raised at open").
        expect(error).toBeInstanceOf(MmdbFormatError);
        return;
      }
      if (typeof want === 'string') {
        expect(() => find(opened, ip)).toThrow(MmdbFormatError);
      } else {
        expect(find(opened, ip).record).toEqual(want);
      }
    },
  );

  test.each([...valid])('%s opens (structurally valid)', (file) => {
    const db = new MmdbDatabase(readFileSync(join(root, file)), 'full');
    expect(db.metadata.database_type).toBe('Test');
    expect(find(db, '1.1.1.1').record).toEqual({ ip: 'test' });
  });

  test('a UINT64_MAX build epoch gives no date instead of overflowing', () => {
    const db = new MmdbDatabase(
      readFileSync(join(root, 'bad-data/libmaxminddb/libmaxminddb-uint64-max-epoch.mmdb')),
      'full',
    );
    expect(db.metadata.build_date).toBe('');
  });

  test('loadIpDatasets names the variable and the problem for a broken override', async () => {
    await expect(
      loadIpDatasets({
        geoipDb: join(root, 'test-data/GeoIP2-City-Test-Broken-Double-Format.mmdb'),
        cacheDir: false,
      }),
    ).rejects.toThrow(
      /^NETDIAG_GEOIP_DB: ".*Broken-Double-Format.mmdb" is not a usable MaxMind DB: data section: double of 5 bytes/,
    );
    await expect(
      loadIpDatasets({ asnDb: join(root, 'test-data/GeoIP2-City-Test.mmdb'), cacheDir: false }),
    ).rejects.toThrow(
      /NETDIAG_ASN_DB: .* is a GeoIP2-City database; an ASN or ISP database is needed/,
    );
    await expect(
      loadIpDatasets({ geoipDb: join(root, 'no-such-file.mmdb'), cacheDir: false }),
    ).rejects.toThrow(/NETDIAG_GEOIP_DB: cannot read/);
  });
});

describe.skipIf(!present)('lookupIp with MaxMind City and ASN test databases', async () => {
  const datasets = present
    ? await loadIpDatasets({
        geoipDb: join(root, 'test-data/GeoIP2-City-Test.mmdb'),
        asnDb: join(root, 'test-data/GeoLite2-ASN-Test.mmdb'),
        cacheDir: false,
      })
    : undefined;
  const en = (v: unknown) =>
    ((v as { names?: { en?: string } } | undefined)?.names?.en ?? '') as string;

  test('every GeoIP2-City-Test case gives the record’s city, region, country and coordinates', () => {
    const cases = expected?.databases['test-data/GeoIP2-City-Test.mmdb'];
    const failures: string[] = [];
    let compared = 0;
    for (const c of [...(cases?.cases ?? []), ...(cases?.ipv4_alias_cases ?? [])]) {
      const info = datasets!.lookup(c.ip);
      if (info.bogon) {
        // Special-purpose addresses are answered without data (CONTRACT §2).
        expect(info.location.country).toBe('');
        continue;
      }
      const r = c.expected as Record<string, unknown>;
      const location = r['location'] as Record<string, number | string> | undefined;
      const country = (r['country'] ?? r['registered_country']) as
        | { iso_code?: string }
        | undefined;
      const subdivisions = r['subdivisions'] as unknown[] | undefined;
      const want = {
        city: en(r['city']),
        region: en(subdivisions?.[0]),
        country: country?.iso_code ?? '',
        latitude: (location?.['latitude'] as number | undefined) ?? null,
        longitude: (location?.['longitude'] as number | undefined) ?? null,
        postal_code: ((r['postal'] as { code?: string } | undefined)?.code ?? '') as string,
      };
      const got = {
        city: info.location.city,
        region: info.location.region,
        country: info.location.country,
        latitude: info.location.latitude,
        longitude: info.location.longitude,
        postal_code: info.location.postal_code,
      };
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        failures.push(`${c.ip}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      }
      if (location?.['time_zone']) expect(info.location.timezone).toBe(location['time_zone']);
      compared++;
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(400);
  });

  test('every GeoLite2-ASN-Test case gives the AS number and name', () => {
    const cases = expected?.databases['test-data/GeoLite2-ASN-Test.mmdb'];
    const failures: string[] = [];
    let compared = 0;
    for (const c of [
      ...(cases?.cases ?? []),
      ...(cases?.ipv4_alias_cases ?? []),
      ...(cases?.not_found_cases ?? []),
    ]) {
      const info = datasets!.lookup(c.ip);
      const r = c.expected as {
        autonomous_system_number?: number;
        autonomous_system_organization?: string;
      } | null;
      const want = info.bogon
        ? { asn: null, as_name: '' }
        : {
            asn: r?.autonomous_system_number ?? null,
            as_name: r?.autonomous_system_organization ?? '',
          };
      const got = { asn: info.network.asn, as_name: info.network.as_name };
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        failures.push(`${c.ip}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      }
      compared++;
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(1400);
  });
});

if (!present) {
  test.skip(`MaxMind corpus not found at ${root} (set NETDIAG_CORPORA)`, () => {});
}
