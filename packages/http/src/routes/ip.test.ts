import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVALID_IP_MESSAGE, lookupAnswer, lookupAnswerV1 } from '@netdiag/core';
import { startHttpTarget, tempDir } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, describe, expect, test } from 'vitest';
import { expectMatchesSchema } from '../../test/expect-schema.js';
import { createApp } from '../app.js';
import { closeContext } from '../context.js';
import { jsonDepth } from './body.js';

const cacheDir = tempDir('netdiag-ip-http-');
const torTarget = await startHttpTarget({
  routes: {
    '/torbulkexitlist': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('8.8.4.4\n185.220.101.1\n');
    },
  },
});
const app = createApp({
  logLevel: 'silent',
  cacheDir,
  torExitListUrl: `${torTarget.url}/torbulkexitlist`,
});
const ctx = app.locals.netdiag;
await ctx.engine.datasets();

afterAll(async () => {
  await closeContext(ctx);
  await torTarget.close();
});

describe('GET /api/lookup', () => {
  test('8.8.8.8: SPEC 2.5 shape with numbers and the three privacy booleans', async () => {
    const res = await request(app).get('/api/lookup?ip=8.8.8.8');
    expectMatchesSchema('lookupIp', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ip: '8.8.8.8',
      location: { country: 'US', country_name: 'United States', timezone: 'America/Los_Angeles' },
      network: { asn: 15169, isp: 'Google LLC', org: 'Google LLC' },
      privacy: { hosting: true, proxy: false, mobile: false },
      bogon: false,
    });
    expect(Object.keys(res.body.data.privacy)).toEqual(['hosting', 'proxy', 'mobile']);
    expect(typeof res.body.data.location.latitude).toBe('number');
  });

  test('an IPv6 address', async () => {
    const res = await request(app).get('/api/lookup?ip=2001:4860:4860::8888');
    expectMatchesSchema('lookupIp', res.body);
    expect(res.body.data.network.asn).toBe(15169);
  });

  test('a bogon: 200, empty location and network, bogon: true', async () => {
    const res = await request(app).get('/api/lookup?ip=192.168.1.1');
    expectMatchesSchema('lookupIp', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      bogon: true,
      location: { city: '', country: '', latitude: null },
      network: { asn: null, isp: '' },
    });
  });

  test('a Tor exit from the fixture list is a proxy', async () => {
    expect(await ctx.engine.refreshFeeds()).toEqual(['tor-exit-list']);
    const res = await request(app).get('/api/lookup?ip=185.220.101.1');
    expectMatchesSchema('lookupIp', res.body);
    expect(res.body.data.privacy.proxy).toBe(true);
    expect(existsSync(join(cacheDir, 'netdiag-tor-exit-list.txt'))).toBe(true);
  });

  test.each([
    ['/api/lookup?ip=999.1.1.1'],
    ['/api/lookup?ip=example.com'],
    ['/api/v1/ip/1.2.3'],
    ['/api/asn?q=1.2.3.999'],
  ])('%s → 400 with the SPEC message', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: INVALID_IP_MESSAGE });
  });

  test('missing ip → 400 naming the parameter', async () => {
    const res = await request(app).get('/api/lookup');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"ip"/);
  });
});

describe('the lookup answers', () => {
  test('is what GET /api/lookup and /api/v1/ip send', async () => {
    const datasets = await ctx.engine.datasets();
    for (const ip of ['1.1.1.1', '81.2.69.160', '2a00:1450:4001:80b::200e']) {
      const info = datasets.lookup(ip);
      const lookup = await request(app).get(`/api/lookup?ip=${ip}`);
      expectMatchesSchema('lookupIp', lookup.body);
      expect(lookup.text).toBe(JSON.stringify({ success: true, data: lookupAnswer(info) }));
      const v1 = await request(app).get(`/api/v1/ip/${ip}`);
      expectMatchesSchema('lookupIpV1', v1.body);
      expect(v1.text).toBe(JSON.stringify({ success: true, data: lookupAnswerV1(info) }));
    }
  });
});

describe('GET /api/v1/ip/:address', () => {
  test('v1 form: numbers, as_name, no privacy', async () => {
    const res = await request(app).get('/api/v1/ip/1.1.1.1');
    expectMatchesSchema('lookupIpV1', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data.network).toMatchObject({ asn: 13335, as_name: 'Cloudflare, Inc.' });
    expect(res.body.data).not.toHaveProperty('privacy');
    expect(res.body.data.location).toHaveProperty('is_eu', false);
  });
});

describe('jsonDepth', () => {
  test.each([
    ['1', 0],
    ['{"ips":["8.8.8.8"]}', 2],
    ['{"ips":["[[[[{{{{"]}', 2],
    ['["\\"]', 1],
    ['["\\"[[["]', 1],
    ['[[[', 3],
  ])('%s → %i', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });
});

describe('POST /api/bulk', () => {
  const post = (body: string, type = 'application/json') =>
    request(app).post('/api/bulk').set('Content-Type', type).send(body);

  test.each([
    ['5,000 nested arrays', `{"ips":[${'['.repeat(5000)}${']'.repeat(5000)}]}`, 5002],
    ['40 nested objects', `{"ips":[${'{"a":'.repeat(40)}1${'}'.repeat(40)}]}`, 42],
    ['8,000 unclosed arrays', '['.repeat(8000), 8000],
  ])('%s → 400 naming the depth, not a 500', async (_name, body, depth) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`nests ${depth} levels deep: at most 32`));
  });

  test('results, errors and total (CONTRACT §6)', async () => {
    const res = await post(JSON.stringify({ ips: ['8.8.8.8', 'bad', '8.8.8.8', '10.0.0.1'] }));
    expectMatchesSchema('bulkLookup', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.results[0]).toMatchObject({
      ip: '8.8.8.8',
      country: 'US',
      isp: 'Google LLC',
      org: 'Google LLC',
      asn: 15169,
    });
    expect(typeof res.body.data.results[0].lat).toBe('number');
    expect(res.body.data.results[1]).toMatchObject({ ip: '10.0.0.1', bogon: true });
    expect(res.body.data.errors).toEqual([{ input: 'bad', error: INVALID_IP_MESSAGE }]);
  });

  test.each([
    ['{"ips": ["8.8.8.8"]}', 'text/plain', /Content-Type: application\/json/],
    ['{"ips": [', 'application/json', /not valid JSON/],
    ['["8.8.8.8"]', 'application/json', /JSON object with an "ips" array/],
    ['{"ips": "8.8.8.8"}', 'application/json', /"ips" must be an array/],
    ['{"ips": []}', 'application/json', /empty/],
    [JSON.stringify({ ips: Array(51).fill('1.1.1.1') }), 'application/json', /at most 50/],
    ['{"ips": ["x", 1]}', 'application/json', /Invalid IP address format/],
    ['', 'application/json', /empty/],
  ])('%s (%s) → 400', async (body, type, message) => {
    const res = await post(body, type);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

describe('GET /api/asn', () => {
  test('AS number → prefixes', async () => {
    const res = await request(app).get('/api/asn?q=AS15169');
    expectMatchesSchema('searchAsn', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'asn', asn: 15169, name: 'Google LLC' });
    expect(res.body.data.prefixes.ipv4).toContain('8.8.8.0/24');
  });
  test('IP → origin AS', async () => {
    const res = await request(app).get('/api/asn?q=1.1.1.1');
    expectMatchesSchema('searchAsn', res.body);
    expect(res.body.data).toMatchObject({ type: 'ip', asn: 13335 });
  });
  test('name → matches', async () => {
    const res = await request(app).get('/api/asn?q=cloudflare');
    expectMatchesSchema('searchAsn', res.body);
    expect(res.body.data.type).toBe('name');
    expect(res.body.data.results[0].asn).toBe(13335);
  });
  test('unknown AS → 404', async () => {
    const res = await request(app).get('/api/asn?q=AS4294967295');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/AS4294967295 not found/);
  });
});

describe('IP data and the Tor feed', () => {
  test('the last good Tor list on disk is used when the upstream is down', async () => {
    const dir = tempDir('netdiag-tor-');
    writeFileSync(join(dir, 'netdiag-tor-exit-list.txt'), '8.8.8.8\n');
    const app2 = createApp({
      logLevel: 'silent',
      cacheDir: dir,
      torExitListUrl: 'http://127.0.0.1:9/unreachable',
    });
    const engine = app2.locals.netdiag.engine;
    const datasets = await engine.datasets();
    await engine.feedsReady;
    await expect(engine.refreshFeeds()).resolves.toEqual([]);
    expect(engine.torExitList()?.has('8.8.8.8')).toBe(true);
    expect(datasets.lookup('8.8.8.8').privacy.is_tor).toBe(true);
    expect(readFileSync(join(dir, 'netdiag-tor-exit-list.txt'), 'utf8')).toBe('8.8.8.8\n');
    await closeContext(app2.locals.netdiag);
  });

  test('a broken NETDIAG_GEOIP_DB is a clear ConfigError, not a crash', async () => {
    const bad = join(cacheDir, 'broken.mmdb');
    writeFileSync(bad, 'not a database');
    const broken = createApp({ logLevel: 'silent', cacheDir, geoipDb: bad });
    await expect(broken.locals.netdiag.engine.datasets()).rejects.toThrow(
      /NETDIAG_GEOIP_DB: ".*broken.mmdb" is not a usable MaxMind DB: no MaxMind DB metadata marker/,
    );
    await closeContext(broken.locals.netdiag);
  });
});
