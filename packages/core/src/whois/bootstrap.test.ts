import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import {
  bootstrapFile,
  bootstrapRoute,
  type RdapTestServer,
  startRdapServer,
} from '../../../../test-utils/src/rdap-server.js';
import { createMemoryCache } from '../net/cache.js';
import {
  BOOTSTRAP_FRESH_MS,
  bootstrapUrl,
  createBootstrapLoader,
  findAsnService,
  findDomainService,
  findIpService,
  parseBootstrapFile,
} from './bootstrap.js';
import { DEFAULT_RDAP_TIMEOUT_MS } from './rdap-client.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const corpora = process.env.NETDIAG_CORPORA ?? join(repo, '..', 'shared', 'corpora');
const samplePath = join(corpora, 'rdap', 'iana-bootstrap-sample.json');
const present = prerequisite(
  'RDAP bootstrap sample',
  existsSync(samplePath),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);
if (!present) console.warn(`[bootstrap] corpus tests skipped: no ${samplePath}`);

(present ? describe : describe.skip)('IANA bootstrap sample (2022)', () => {
  const sample = present
    ? (JSON.parse(readFileSync(samplePath, 'utf8')) as Record<string, unknown>)
    : {};
  const dns = () => parseBootstrapFile(sample['dns']);

  test('every registry parses, each service with entries and http(s) base URLs', () => {
    for (const registry of ['dns', 'ipv4', 'ipv6', 'asn']) {
      const file = parseBootstrapFile(sample[registry]);
      expect(file.services.length).toBeGreaterThan(0);
      for (const service of file.services) {
        expect(service.entries.length).toBeGreaterThan(0);
        for (const url of service.urls) expect(url).toMatch(/^https?:\/\/.+\/$/);
      }
    }
  });

  test.each([
    ['example.com', 'https://rdap.verisign.com/com/v1/'],
    ['www.example.net', 'https://rdap.verisign.com/net/v1/'],
    ['example.org', 'https://rdap.publicinterestregistry.org/rdap/'],
  ])('%s → %s', (domain, base) => {
    expect(findDomainService(dns(), domain)?.[0]).toBe(base);
  });

  test('a TLD without RDAP has no service', () => {
    expect(findDomainService(dns(), 'example.invalid-tld-netdiag')).toBeUndefined();
  });

  test('IP and ASN lookups find the covering RIR, https preferred', () => {
    const ipv4 = parseBootstrapFile(sample['ipv4']);
    const ipv6 = parseBootstrapFile(sample['ipv6']);
    const asn = parseBootstrapFile(sample['asn']);
    expect(findIpService(ipv4, '8.8.8.8')?.[0]).toBe('https://rdap.arin.net/registry/');
    expect(findIpService(ipv4, '193.0.6.139')?.[0]).toBe('https://rdap.db.ripe.net/');
    expect(findIpService(ipv6, '2001:67c:2e8::1')?.[0]).toBe('https://rdap.db.ripe.net/');
    expect(findAsnService(asn, 3333)?.[0]).toBe('https://rdap.db.ripe.net/');
    expect(findAsnService(asn, 1)?.[0]).toBe('https://rdap.arin.net/registry/');
    expect(findIpService(ipv4, '10.0.0.1')).toBeUndefined();
  });
});

describe('bootstrap matching rules', () => {
  const file = parseBootstrapFile(
    bootstrapFile([
      [['uk'], ['https://uk.example/rdap/']],
      [['co.uk'], ['http://couk.example/', 'https://couk.example/']],
      [['10.0.0.0/8'], ['https://wide.example/']],
      [['10.1.0.0/16'], ['https://narrow.example/']],
      [['2001:db8::/32'], ['https://v6.example']],
      [['64512-65534', '7'], ['https://asn.example/']],
    ]),
  );

  test('longest domain match wins (RFC 9224 §4); https first; base URLs end with /', () => {
    expect(findDomainService(file, 'example.co.uk')).toEqual([
      'https://couk.example/',
      'http://couk.example/',
    ]);
    expect(findDomainService(file, 'example.org.uk')?.[0]).toBe('https://uk.example/rdap/');
  });

  test('most specific prefix wins; single AS numbers and ranges match', () => {
    expect(findIpService(file, '10.1.2.3')?.[0]).toBe('https://narrow.example/');
    expect(findIpService(file, '10.2.0.1')?.[0]).toBe('https://wide.example/');
    expect(findIpService(file, '2001:db8::1')?.[0]).toBe('https://v6.example/');
    expect(findAsnService(file, 7)?.[0]).toBe('https://asn.example/');
    expect(findAsnService(file, 65000)?.[0]).toBe('https://asn.example/');
    expect(findAsnService(file, 65535)).toBeUndefined();
  });

  test.each([
    ['not an object', []],
    ['services missing', { version: '1.0' }],
    ['service not a pair', { services: [['com']] }],
    ['entries not strings', { services: [[[1], ['https://x/']]] }],
  ])('%s is rejected', (_label, json) => {
    expect(() => parseBootstrapFile(json)).toThrow();
  });

  test('sibling files sit beside dns.json', () => {
    expect(bootstrapUrl('https://data.iana.org/rdap/dns.json', 'asn')).toBe(
      'https://data.iana.org/rdap/asn.json',
    );
  });
});

describe('bootstrap loader: 24 h cache with conditional requests', () => {
  let server: RdapTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('fresh for 24 h, then revalidated with If-None-Match; 304 keeps the file', async () => {
    const file = bootstrapFile([[['com'], ['https://rdap.example/']]]);
    server = await startRdapServer({ routes: { '/dns.json': bootstrapRoute(file) } });
    let now = 1_000_000;
    const loader = createBootstrapLoader({
      url: `${server.url}/dns.json`,
      cache: createMemoryCache({ now: () => now }),
      now: () => now,
    });
    const first = await loader.load('dns');
    expect(findDomainService(first, 'a.com')).toEqual(['https://rdap.example/']);
    await loader.load('dns');
    now += BOOTSTRAP_FRESH_MS - 1;
    await loader.load('dns');
    expect(server.requests).toHaveLength(1);

    now += 2;
    const again = await loader.load('dns');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['if-none-match']).toBe('"v1"');
    expect(server.requests[1]?.headers['if-modified-since']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(findDomainService(again, 'a.com')).toEqual(['https://rdap.example/']);
    // The 304 restarted the 24 h clock.
    await loader.load('dns');
    expect(server.requests).toHaveLength(2);
  });

  test('a changed file replaces the cached one', async () => {
    let version = 1;
    server = await startRdapServer({
      routes: {
        '/dns.json': (req) =>
          bootstrapRoute(bootstrapFile([[['com'], [`https://v${version}.example/`]]]), {
            etag: `"v${version}"`,
          })(req),
      },
    });
    let now = 0;
    const loader = createBootstrapLoader({
      url: `${server.url}/dns.json`,
      cache: createMemoryCache({ now: () => now }),
      now: () => now,
    });
    expect(findDomainService(await loader.load('dns'), 'a.com')).toEqual(['https://v1.example/']);
    version = 2;
    now += BOOTSTRAP_FRESH_MS + 1;
    expect(findDomainService(await loader.load('dns'), 'a.com')).toEqual(['https://v2.example/']);
  });

  test('a stale copy is served when IANA fails; no copy → the error', async () => {
    const file = bootstrapFile([[['com'], ['https://rdap.example/']]]);
    let up = true;
    server = await startRdapServer({
      routes: {
        '/dns.json': (req) => (up ? bootstrapRoute(file)(req) : { status: 500 }),
      },
    });
    let now = 0;
    const cache = createMemoryCache({ now: () => now });
    const loader = createBootstrapLoader({ url: `${server.url}/dns.json`, cache, now: () => now });
    await loader.load('dns');
    up = false;
    now += BOOTSTRAP_FRESH_MS + 1;
    expect(findDomainService(await loader.load('dns'), 'a.com')).toEqual(['https://rdap.example/']);

    const cold = createBootstrapLoader({
      url: `${server.url}/dns.json`,
      cache: createMemoryCache(),
    });
    await expect(cold.load('dns')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
  });

  test('concurrent loads share one fetch; a body that is not a bootstrap file is an upstream error', async () => {
    server = await startRdapServer({
      routes: {
        '/dns.json': { body: bootstrapFile([[['com'], ['https://r/']]]), delayMs: 50 },
        '/asn.json': { raw: '{"services": 5}' },
      },
    });
    const loader = createBootstrapLoader({
      url: `${server.url}/dns.json`,
      cache: createMemoryCache(),
    });
    await Promise.all([loader.load('dns'), loader.load('dns'), loader.load('dns')]);
    expect(server.requests.filter((r) => r.path === '/dns.json')).toHaveLength(1);
    await expect(loader.load('asn')).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      upstream: 'rdap-bootstrap',
    });
  });
});

describe('bootstrap loader: time budget', () => {
  let server: RdapTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // Issue 41 item 8: the loader waited 10 s where docs/whois.md says an RDAP request, the
  // bootstrap file's included, gets 8 s. A file sent after 9 s must come too late.
  test('a bootstrap server slower than 8 s is a timeout of DEFAULT_RDAP_TIMEOUT_MS', async () => {
    expect(DEFAULT_RDAP_TIMEOUT_MS).toBe(8_000);
    server = await startRdapServer({
      routes: {
        '/dns.json': { body: bootstrapFile([[['com'], ['https://r/']]]), delayMs: 9_000 },
      },
    });
    const loader = createBootstrapLoader({
      url: `${server.url}/dns.json`,
      cache: createMemoryCache(),
    });
    const started = performance.now();
    await expect(loader.load('dns')).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      timeoutMs: DEFAULT_RDAP_TIMEOUT_MS,
    });
    expect(performance.now() - started).toBeLessThan(DEFAULT_RDAP_TIMEOUT_MS + 800);
  }, 15_000);

  test('docs/whois.md states the same budget for the bootstrap file and RDAP requests', () => {
    const doc = readFileSync(join(repo, 'docs', 'whois.md'), 'utf8');
    const seconds = `${DEFAULT_RDAP_TIMEOUT_MS / 1000} s`;
    expect(doc).toContain(`an RDAP request (the bootstrap file's included) exceeded ${seconds}`);
    expect(doc).toMatch(
      new RegExp(
        `budget of any RDAP\\s+request, \\*\\*${seconds}\\*\\* \\(\`DEFAULT_RDAP_TIMEOUT_MS\``,
      ),
    );
  });
});
