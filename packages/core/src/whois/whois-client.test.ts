import { afterEach, describe, expect, test } from 'vitest';
import { freePort } from '../../../../test-utils/src/http-server.js';
import { startWhoisServer, type WhoisTestServer } from '../../../../test-utils/src/whois-server.js';
import {
  decodeWhois,
  formatWhoisServer,
  parseWhoisServer,
  queryWhoisServer,
} from './whois-client.js';

let server: WhoisTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const at = (s: WhoisTestServer) => ({ host: s.host, port: s.port });

describe('decodeWhois', () => {
  test('UTF-8 when valid', () => {
    expect(decodeWhois(Buffer.from('Registrar: Société Générale ✓', 'utf8'))).toBe(
      'Registrar: Société Générale ✓',
    );
  });
  test('Latin-1 when not valid UTF-8', () => {
    expect(decodeWhois(Buffer.from('Registrar: Société', 'latin1'))).toBe('Registrar: Société');
  });
  test('a BOM is dropped', () => {
    expect(decodeWhois(Buffer.from('\ufeffdomain: a.example', 'utf8'))).toBe('domain: a.example');
  });
});

describe('parseWhoisServer', () => {
  // The grammar itself is tested in net/host-port.test.ts; here only what WHOIS adds.
  test('host names allowed, port 43 by default and left out when formatted', () => {
    expect(parseWhoisServer('Whois.IANA.org')).toEqual({ host: 'whois.iana.org', port: 43 });
    expect(parseWhoisServer('[::1]:4343')).toEqual({ host: '::1', port: 4343 });
    expect(formatWhoisServer({ host: 'whois.iana.org', port: 43 })).toBe('whois.iana.org');
    expect(formatWhoisServer({ host: '::1', port: 4343 })).toBe('[::1]:4343');
    expect(parseWhoisServer('host:0')).toBeUndefined();
  });
});

describe('queryWhoisServer', () => {
  test('sends the query with CRLF and reads until close', async () => {
    server = await startWhoisServer({ answers: { 'example.com': 'Domain Name: EXAMPLE.COM\r\n' } });
    const answer = await queryWhoisServer({ server: at(server), query: 'example.com' });
    expect(answer.text).toBe('Domain Name: EXAMPLE.COM\r\n');
    expect(answer.truncated).toBe(false);
    expect(server.queries).toEqual(['example.com']);
  });

  test('Latin-1 answers are decoded', async () => {
    server = await startWhoisServer({
      answers: { 'a.example': Buffer.from('registrar: Fundação Ñandú\n', 'latin1') },
    });
    expect((await queryWhoisServer({ server: at(server), query: 'a.example' })).text).toBe(
      'registrar: Fundação Ñandú\n',
    );
  });

  test('an endless answer is cut at maxBytes', async () => {
    server = await startWhoisServer({ answers: { flood: 'flood' } });
    const answer = await queryWhoisServer(
      { server: at(server), query: 'flood' },
      { maxBytes: 50_000 },
    );
    expect(answer.truncated).toBe(true);
    expect(answer.text.length).toBe(50_000);
  });

  test('a server that never answers → TimeoutError naming whois', async () => {
    server = await startWhoisServer({ answers: { slow: 'hang' } });
    const started = Date.now();
    await expect(
      queryWhoisServer({ server: at(server), query: 'slow' }, { timeoutMs: 150 }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: 'whois',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('connection refused → UpstreamError saying so in words, the server beside it', async () => {
    const port = await freePort();
    await expect(
      queryWhoisServer({ server: { host: '127.0.0.1', port }, query: 'x' }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message:
        '[netdiag] [whois] cannot reach the WHOIS server: connection refused (nothing listens on that port)',
      server: `127.0.0.1:${port}`,
    });
  });

  test('the caller signal aborts the hop', async () => {
    server = await startWhoisServer({ answers: { slow: 'hang' } });
    const controller = new AbortController();
    const pending = queryWhoisServer(
      { server: at(server), query: 'slow' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });

  test('an empty answer is an empty text', async () => {
    server = await startWhoisServer({ answers: { x: 'close' } });
    expect((await queryWhoisServer({ server: at(server), query: 'x' })).text).toBe('');
  });
});
