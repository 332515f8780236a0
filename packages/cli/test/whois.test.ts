/**
 * `netdiag whois` against loopback fixtures: an RDAP service (bootstrap files, registry,
 * RIR) and a WHOIS chain (IANA → registry).
 */

import { freePort } from '@netdiag/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  bootstrapFile,
  bootstrapRoute,
  type RdapTestServer,
  startRdapServer,
} from '../../../test-utils/src/rdap-server.js';
import { startWhoisServer, type WhoisTestServer } from '../../../test-utils/src/whois-server.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

let rdap: RdapTestServer;
let iana: WhoisTestServer;
let registry: WhoisTestServer;

const domainRecord = {
  objectClassName: 'domain',
  status: ['active'],
  events: [{ eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' }],
  nameservers: [{ ldhName: 'NS1.EXAMPLE.NET' }],
  entities: [
    {
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
      vcardArray: ['vcard', [['fn', {}, 'text', 'Example Registrar']]],
    },
  ],
};

beforeAll(async () => {
  rdap = await startRdapServer();
  registry = await startWhoisServer({
    answers: {
      'example.org':
        'Domain Name: EXAMPLE.ORG\nRegistrar: Org Registrar\nCreation Date: 1995-04-30T04:00:00Z\nDomain Status: ok\n',
    },
  });
  iana = await startWhoisServer({ answers: () => `refer: ${registry.address}\n` });
});
afterAll(async () => {
  await Promise.all([rdap.close(), iana.close(), registry.close()]);
});
beforeEach(() => {
  Object.assign(rdap.routes, {
    '/dns.json': bootstrapRoute(bootstrapFile([[['com'], [`${rdap.url}/com/`]]])),
    '/ipv4.json': bootstrapRoute(bootstrapFile([[['8.0.0.0/8'], [`${rdap.url}/arin/`]]])),
    '/asn.json': bootstrapRoute(bootstrapFile([[['13312-15359'], [`${rdap.url}/arin/`]]])),
    '/com/domain/example.com': { body: domainRecord },
    '/arin/ip/8.8.8.8': {
      body: {
        objectClassName: 'ip network',
        handle: 'NET-8-8-8-0-2',
        name: 'GOGL',
        startAddress: '8.8.8.0',
        endAddress: '8.8.8.255',
        country: 'US',
        type: 'DIRECT ALLOCATION',
        status: ['active'],
        entities: [
          { roles: ['registrant'], vcardArray: ['vcard', [['fn', {}, 'text', 'Google LLC']]] },
        ],
      },
    },
    '/arin/autnum/13335': {
      body: {
        objectClassName: 'autnum',
        handle: 'AS13335',
        name: 'CLOUDFLARENET',
        startAutnum: 13335,
        endAutnum: 13335,
      },
    },
  });
});

const env = () => ({
  NETDIAG_RDAP_BOOTSTRAP_URL: `${rdap.url}/dns.json`,
  NETDIAG_WHOIS_SERVER: iana.address,
  // Registries and referrals of the fixtures are on loopback.
  NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8',
});

describe('netdiag whois <domain>', () => {
  test('--json prints the /api/whois data (RDAP)', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'www.example.com', '--json'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout().trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(cap.stdout())).toEqual({
      domain: 'example.com',
      registrar: 'Example Registrar',
      registrar_iana_id: 376,
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '',
      last_updated: '',
      name_servers: ['ns1.example.net'],
      status: ['active'],
      rdap_link: `${rdap.url}/com/domain/example.com`,
      source: 'rdap',
    });
  });

  test('human output', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'example.com'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe(
      [
        'example.com (from RDAP)',
        'Registrar:    Example Registrar (IANA 376)',
        'Created:      1995-08-14T04:00:00.000Z',
        'Expires:      unknown',
        'Updated:      unknown',
        'Status:       active',
        'Name servers: ns1.example.net',
        `RDAP record:  ${rdap.url}/com/domain/example.com`,
        '',
      ].join('\n'),
    );
  });

  test('no RDAP service → WHOIS fallback; --rdap-only → exit 4', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'example.org', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).toMatchObject({
      domain: 'example.org',
      registrar: 'Org Registrar',
      status: ['active'],
      source: 'whois',
      rdap_link: '',
    });
    const v1 = captureIO(env());
    expect(await run(['whois', 'example.org', '--rdap-only', '--json'], v1.io)).toBe(EXIT.notFound);
    expect(v1.stdout()).toBe('');
    expect(v1.stderr()).toBe('netdiag: Domain not found in RDAP\n');
  });

  test('--rdap-only prints the v1 data (no source)', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'example.com', '--rdap-only', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).not.toHaveProperty('source');
  });

  test('registered nowhere → exit 4', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'nothing-here.org'], cap.io)).toBe(EXIT.notFound);
    expect(cap.stderr()).toMatch(/not found/i);
  });

  test('bad input → exit 2', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', 'not a domain'], cap.io)).toBe(EXIT.badInput);
    // In CLI words: the operand, not the API's parameter name.
    expect(cap.stderr()).toMatch(/the domain must be/);
    expect(cap.stderr()).not.toMatch(/"domain"/);
  });

  test('an unreachable registry → exit 3', async () => {
    rdap.routes['/com/domain/example.com'] = { status: 500 };
    const cap = captureIO(env());
    expect(await run(['whois', 'example.com'], cap.io)).toBe(EXIT.network);
    expect(cap.stderr()).toMatch(/rdap/);
  });

  test('a WHOIS server not listening → exit 3, naming it to the local user in words', async () => {
    const port = await freePort();
    const cap = captureIO({ ...env(), NETDIAG_WHOIS_SERVER: `127.0.0.1:${port}` });
    expect(await run(['whois', 'example.org'], cap.io)).toBe(EXIT.network);
    expect(cap.stderr()).toBe(
      `netdiag: whois: cannot reach 127.0.0.1:${port}: connection refused (nothing listens on that port)\n`,
    );
  });
});

describe('netdiag whois <ip|ASN>', () => {
  test('an IP address → its RDAP network', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', '8.8.8.8', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).toEqual({
      query: '8.8.8.8',
      object_class: 'ip network',
      handle: 'NET-8-8-8-0-2',
      name: 'GOGL',
      start: '8.8.8.0',
      end: '8.8.8.255',
      country: 'US',
      type: 'DIRECT ALLOCATION',
      organization: 'Google LLC',
      creation_date: '',
      last_updated: '',
      status: ['active'],
      rdap_link: `${rdap.url}/arin/ip/8.8.8.8`,
    });
    const human = captureIO(env());
    expect(await run(['whois', '8.8.8.8'], human.io)).toBe(EXIT.ok);
    expect(human.stdout()).toContain('8.8.8.8: NET-8-8-8-0-2 GOGL (ip network)\n');
    expect(human.stdout()).toContain('Range:        8.8.8.0 – 8.8.8.255\n');
    expect(human.stdout()).toContain('Organization: Google LLC\n');
  });

  test.each(['AS13335', 'as13335', '13335'])('%s → its autnum', async (query) => {
    const cap = captureIO(env());
    expect(await run(['whois', query, '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).toMatchObject({ query: 'AS13335', name: 'CLOUDFLARENET' });
  });

  test('an address no RIR covers → exit 4', async () => {
    const cap = captureIO(env());
    expect(await run(['whois', '9.9.9.9'], cap.io)).toBe(EXIT.notFound);
  });
});
