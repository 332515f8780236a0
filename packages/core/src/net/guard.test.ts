import { describe, expect, test } from 'vitest';
import { isNetdiagError } from '../errors.js';
import type { DnsResolver, DnsResponse, RecordType } from './dns-types.js';
import {
  allowedSet,
  assertAddressAllowed,
  normaliseHost,
  parseProbeUrl,
  resolveAndCheck,
} from './guard.js';

/** A resolver that answers from a table without any network (unit tests of the logic only). */
function tableResolver(table: Record<string, { A?: string[]; AAAA?: string[]; rcode?: string }>) {
  const calls: string[] = [];
  const resolver: DnsResolver = {
    async query(name: string, type: RecordType): Promise<DnsResponse> {
      calls.push(`${name}/${type}`);
      const entry = table[name];
      const values = (type === 'A' ? entry?.A : type === 'AAAA' ? entry?.AAAA : []) ?? [];
      return {
        name,
        type,
        rcode: entry?.rcode ?? (entry ? 'NOERROR' : 'NXDOMAIN'),
        answers: values.map((value) => ({
          name,
          type,
          typeCode: type === 'A' ? 1 : 28,
          ttl: 60,
          data: value,
          value,
        })),
        authority: [],
        authenticated: false,
        server: 'table',
        transport: 'udp',
      };
    },
  };
  return { resolver, calls };
}

describe('parseProbeUrl', () => {
  test.each([
    ['example.com', 'https://example.com/'],
    ['example.com:8443/x?y=1#frag', 'https://example.com:8443/x?y=1'],
    ['http://user:pw@example.com/', 'http://example.com/'],
    ['HTTPS://EXAMPLE.com', 'https://example.com/'],
    ['127.1', 'https://127.0.0.1/'],
    ['http://0x7f000001/', 'http://127.0.0.1/'],
    ['http://2130706433/', 'http://127.0.0.1/'],
    ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/'],
    ['bücher.example', 'https://xn--bcher-kva.example/'],
  ])('%s → %s', (input, expected) => {
    expect(parseProbeUrl(input).href).toBe(expected);
  });

  test('defaultScheme http', () => {
    expect(parseProbeUrl('example.com', { defaultScheme: 'http' }).href).toBe(
      'http://example.com/',
    );
  });

  test.each([
    ['file:///etc/passwd', /http or https, not file/],
    ['ftp://example.com/', /not ftp/],
    ['gopher://127.0.0.1:25/_HELO', /not gopher/],
    ['javascript:alert(1)', /not javascript/],
    ['data:text/html,hi', /not data/],
    ['ws://example.com/', /not ws/],
    ['', /Missing required parameter "url"/],
    ['http://', /not a valid URL/],
    ['http://exa mple.com/', /not a valid URL/],
  ])('rejects %s', (input, message) => {
    expect(() => parseProbeUrl(input)).toThrow(message);
  });
});

describe('normaliseHost', () => {
  test.each([
    ['127.1', '127.0.0.1', true],
    ['0x7f.0.0.1', '127.0.0.1', true],
    ['[::1]', '::1', true],
    ['::ffff:10.0.0.1', '10.0.0.1', true],
    ['Example.COM', 'example.com', false],
    ['bücher.example', 'xn--bcher-kva.example', false],
  ])('%s → %s', (input, host, literal) => {
    expect(normaliseHost(input)).toEqual({ host, literal });
  });
  test.each(['http://example.com', 'a/b', 'user@host', ''])('rejects %j', (input) => {
    expect(() => normaliseHost(input)).toThrow(/host/);
  });
});

describe('assertAddressAllowed', () => {
  const none = allowedSet([]);
  test.each([
    ['127.0.0.1', /loopback/],
    ['10.1.2.3', /private network/],
    ['169.254.169.254', /link-local/],
    ['::ffff:192.168.0.1', /private network/],
    ['64:ff9b::a9fe:a9fe', /link-local/],
    ['2002:0a00:0001::', /private network/],
    ['fd00:ec2::254', /unique local/],
    ['::', /unspecified/],
    ['ff02::1', /multicast/],
  ])('%s is refused', (address, reason) => {
    expect(() => assertAddressAllowed(address, none)).toThrow(reason);
    try {
      assertAddressAllowed(address, none);
    } catch (error) {
      expect(isNetdiagError(error, 'TARGET_NOT_ALLOWED')).toBe(true);
      expect((error as Error).message).toMatch(/^Target not allowed: /);
    }
  });
  test('public addresses pass; allowed ranges pass', () => {
    expect(assertAddressAllowed('93.184.216.34', none)).toBe('93.184.216.34');
    expect(assertAddressAllowed('2606:4700::1111', none)).toBe('2606:4700::1111');
    expect(assertAddressAllowed('127.0.0.2', allowedSet(['127.0.0.2/32']))).toBe('127.0.0.2');
    expect(() => assertAddressAllowed('127.0.0.1', allowedSet(['127.0.0.2/32']))).toThrow(
      /loopback/,
    );
  });
});

describe('resolveAndCheck', () => {
  test('IP literals need no resolver and are checked', async () => {
    await expect(resolveAndCheck('93.184.216.34', {})).resolves.toEqual({
      host: '93.184.216.34',
      literal: true,
      addresses: ['93.184.216.34'],
    });
    await expect(resolveAndCheck('127.1', {})).rejects.toThrow(/127\.0\.0\.1 is a loopback/);
  });

  test('one lookup of A and AAAA; IPv4 first; all addresses returned', async () => {
    const { resolver, calls } = tableResolver({
      'pub.example': { A: ['93.184.216.34'], AAAA: ['2606:2800:220:1::1'] },
    });
    const checked = await resolveAndCheck('pub.example.', { resolver });
    expect(checked).toEqual({
      host: 'pub.example',
      literal: false,
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
    expect(calls.sort()).toEqual(['pub.example/A', 'pub.example/AAAA']);
  });

  test('one private address among public ones poisons the name', async () => {
    const { resolver } = tableResolver({ 'mixed.example': { A: ['93.184.216.34', '10.0.0.7'] } });
    await expect(resolveAndCheck('mixed.example', { resolver })).rejects.toThrow(
      'Target not allowed: mixed.example resolves to 10.0.0.7, which is a private network (RFC 1918) address',
    );
  });

  test('a private AAAA poisons the name too', async () => {
    const { resolver } = tableResolver({
      'v6.example': { A: ['93.184.216.34'], AAAA: ['fe80::1'] },
    });
    await expect(resolveAndCheck('v6.example', { resolver })).rejects.toThrow(
      /fe80::1.*link-local/,
    );
  });

  test.each(['localhost', 'db.localhost', 'printer.local', 'router.home.arpa', 'intranet'])(
    '%s is refused without a DNS query',
    async (name) => {
      const { resolver, calls } = tableResolver({});
      await expect(resolveAndCheck(name, { resolver })).rejects.toThrow(/Target not allowed/);
      expect(calls).toEqual([]);
    },
  );

  test('NXDOMAIN and empty answers are NOT_FOUND; SERVFAIL is an upstream error', async () => {
    const { resolver } = tableResolver({
      'empty.example': {},
      'broken.example': { rcode: 'SERVFAIL' },
    });
    await expect(resolveAndCheck('nope.example', { resolver })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'nope.example does not exist (DNS NXDOMAIN)',
    });
    await expect(resolveAndCheck('empty.example', { resolver })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(resolveAndCheck('broken.example', { resolver })).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
    });
  });

  test('allowedTargets exempts ranges', async () => {
    const { resolver } = tableResolver({ 'fixture.test': { A: ['127.0.0.2'] } });
    await expect(
      resolveAndCheck('fixture.test', { resolver, allowedTargets: ['127.0.0.0/30'] }),
    ).resolves.toMatchObject({ addresses: ['127.0.0.2'] });
  });
});
