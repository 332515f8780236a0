import { startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseJsonBody, parseRetryAfter, throwForStatus, upstreamRequest } from './http-client.js';

let target: Awaited<ReturnType<typeof startHttpTarget>>;
beforeAll(async () => {
  target = await startHttpTarget({
    routes: {
      '/json': (_q, r) =>
        void r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
      '/redirect': (_q, r) => void r.writeHead(302, { location: '/json' }).end(),
      '/big': (_q, r) => void r.end('x'.repeat(5000)),
      '/slow': () => {},
      '/busy': (_q, r) => void r.writeHead(429, { 'retry-after': '7' }).end(),
      '/down': (_q, r) => void r.writeHead(500).end(),
      '/garbage': (_q, r) => void r.end('<html>'),
    },
  });
});
afterAll(() => target.close());

describe('upstreamRequest', () => {
  test('follows redirects and reads JSON', async () => {
    const res = await upstreamRequest(`${target.url}/redirect`, { upstream: 'test' });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${target.url}/json`);
    expect(parseJsonBody(res, 'test')).toEqual({ a: 1 });
  });
  test('caps the body', async () => {
    await expect(
      upstreamRequest(`${target.url}/big`, { upstream: 'test', maxBytes: 100 }),
    ).rejects.toThrow(/larger than 100 bytes/);
  });
  test('times out with the upstream named', async () => {
    await expect(
      upstreamRequest(`${target.url}/slow`, { upstream: 'rdap', timeout: 100 }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: 'rdap',
    });
  });
  test('maps statuses', async () => {
    const busy = await upstreamRequest(`${target.url}/busy`, { upstream: 'breach' });
    expect(() => throwForStatus(busy, 'breach')).toThrow(
      expect.objectContaining({ code: 'UPSTREAM_THROTTLED', retryAfterS: 7 }),
    );
    const down = await upstreamRequest(`${target.url}/down`, { upstream: 'breach' });
    expect(() => throwForStatus(down, 'breach')).toThrow(/HTTP 500/);
    const garbage = await upstreamRequest(`${target.url}/garbage`, { upstream: 'breach' });
    expect(() => parseJsonBody(garbage, 'breach')).toThrow(/not valid JSON/);
  });
  test('refused connections are upstream errors', async () => {
    await expect(upstreamRequest('http://127.0.0.1:1/', { upstream: 'tor' })).rejects.toMatchObject(
      { code: 'UPSTREAM_ERROR' },
    );
  });
  test('Retry-After forms', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThanOrEqual(29);
    expect(parseRetryAfter(undefined)).toBe(60);
  });
});
