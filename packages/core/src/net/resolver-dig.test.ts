/**
 * The `data` strings are byte-identical to `dig +short` for the same zone (CONTRACT §6). Needs
 * `dig` (dnsutils); skipped with a message when it is not installed. dig only talks to the
 * loopback fixture.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  buildSignedHierarchy,
  type DnsTestServer,
  dnssecTestTree,
  type LoopbackDnsProcess,
  prerequisite,
  signedTreeToolsPresent,
  startDnsServer,
  startNsd,
  tempDir,
  type Zone,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RecordType } from './dns-types.js';
import { createResolver } from './resolver.js';

const run = promisify(execFile);

function hasDig(): boolean {
  try {
    execFileSync('dig', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ZONE: Zone = {
  'example.test': {
    A: ['192.0.2.10', '192.0.2.11'],
    AAAA: ['2001:db8::10', '2001:db8:0:1:0:0:0:1'],
    MX: [
      { preference: 10, exchange: 'mail.example.test' },
      { preference: 0, exchange: '.' },
    ],
    NS: ['ns1.example.test'],
    TXT: [
      'v=spf1 -all',
      ['part one ', 'part "two"'],
      'back\\slash; semi @at $dollar (paren)',
      'tab\there',
      'caf\u00e9 \u2603',
      '',
    ],
    SOA: {
      mname: 'ns1.example.test',
      rname: 'host.master.example.test',
      serial: 4294967295,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 120,
    },
    CAA: [
      { flags: 0, tag: 'issue', value: 'ca.example; account=12' },
      { flags: 128, tag: 'iodef', value: 'mailto:security@example.test' },
      { flags: 0, tag: 'issuewild', value: ';' },
    ],
  },
  'v6.example.test': {
    AAAA: ['::', '::1', '::ffff:1.2.3.4', '::2:3', '1:0:0:2:0:0:0:3', 'fe80::', '2001:db8:0:0:1::'],
  },
  'www.example.test': { CNAME: 'example.test' },
  'odd.example.test': { CNAME: 'Mixed-Case.Example.Test' },
  '_sip._tcp.example.test': {
    SRV: [
      { priority: 10, weight: 60, port: 5060, target: 'sip.example.test' },
      { priority: 0, weight: 0, port: 0, target: '.' },
    ],
  },
  '10.2.0.192.in-addr.arpa': { PTR: ['host.example.test'] },
  '*.wild.example.test': { A: ['192.0.2.99'] },
};

const CASES: [string, RecordType][] = [
  ['example.test', 'A'],
  ['example.test', 'AAAA'],
  ['v6.example.test', 'AAAA'],
  ['example.test', 'MX'],
  ['example.test', 'NS'],
  ['example.test', 'TXT'],
  ['example.test', 'SOA'],
  ['example.test', 'CAA'],
  ['www.example.test', 'CNAME'],
  ['www.example.test', 'A'],
  ['odd.example.test', 'CNAME'],
  ['_sip._tcp.example.test', 'SRV'],
  ['10.2.0.192.in-addr.arpa', 'PTR'],
  ['x.wild.example.test', 'A'],
];

const dig = prerequisite('dig', hasDig(), 'apt-get install bind9-dnsutils');
if (!dig) {
  describe.skip('dig +short comparison (dig not installed: apt-get install dnsutils)', () => {
    test('skipped', () => {});
  });
} else {
  describe('data is byte-identical to dig +short', () => {
    let server: DnsTestServer;
    beforeAll(async () => {
      server = await startDnsServer({ zone: ZONE });
    });
    afterAll(() => server.close());

    test.each(CASES)('%s %s', async (name, type) => {
      const resolver = createResolver({ servers: [server.address], cache: false });
      const response = await resolver.query(name, type);
      const { stdout } = await run('dig', [
        '+short',
        '+tries=1',
        '+time=2',
        `@${server.host}`,
        '-p',
        String(server.port),
        name,
        type,
      ]);
      const lines = stdout.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(0);
      expect(response.answers.map((r) => r.data)).toEqual(lines);
    });
  });
}

/**
 * The types of issue 19 (DNSSEC, DANE, SSHFP, NAPTR, SVCB/HTTPS, CDS/CDNSKEY) from a zone signed
 * by dnssec-signzone and served by NSD: dig prints every record of the answer section with
 * `+dnssec`, RRSIGs included, so the whole section is compared, signatures and all.
 */
const MODERN_CASES: [string, RecordType][] = [
  ['p256.example', 'DNSKEY'],
  ['p256.example', 'DS'],
  ['p256.example', 'NSEC3PARAM'],
  ['p256.example', 'CDS'],
  ['p256.example', 'CDNSKEY'],
  ['p256.example', 'RRSIG'],
  ['svc.p256.example', 'HTTPS'],
  ['svc.p256.example', 'SVCB'],
  ['svc2.p256.example', 'SVCB'],
  ['_443._tcp.p256.example', 'TLSA'],
  ['host.p256.example', 'SSHFP'],
  ['sip.p256.example', 'NAPTR'],
  ['enum.p256.example', 'NAPTR'],
  ['www.rsa.example', 'NSEC'],
  ['rsa.example', 'DNSKEY'],
  ['www.ed25519.example', 'A'],
  ['www.p384.example', 'AAAA'],
];

const signers = dig && signedTreeToolsPresent();

describe.skipIf(!signers)('the types of issue 19 are byte-identical to dig +short +dnssec', () => {
  let nsd: LoopbackDnsProcess;
  beforeAll(async () => {
    const built = buildSignedHierarchy(tempDir('netdiag-dig-zones-'), dnssecTestTree());
    nsd = await startNsd(built.zones);
  }, 60_000);
  afterAll(() => nsd?.close());

  test.each(MODERN_CASES)('%s %s', async (name, type) => {
    const resolver = createResolver({ servers: [nsd.address], cache: false });
    const response = await resolver.query(name, type, { dnssecOk: true });
    const { stdout } = await run('dig', [
      '+short',
      '+dnssec',
      '+tries=1',
      '+time=2',
      `@${nsd.host}`,
      '-p',
      String(nsd.port),
      name,
      type,
    ]);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(0);
    expect(response.answers.map((r) => r.data)).toEqual(lines);
  });

  test('HTTPS and SVCB records carry their SvcParams decoded', async () => {
    const resolver = createResolver({ servers: [nsd.address], cache: false });
    const https = await resolver.query('svc.p256.example', 'HTTPS');
    expect(https.answers[0]?.value).toEqual({
      priority: 1,
      target: '',
      params: {
        mandatory: ['alpn', 'port'],
        alpn: ['h2', 'h3'],
        port: 8443,
        ipv4hint: ['192.0.2.1', '192.0.2.2'],
        ech: 'AEX+DQBBpQAgACB/',
        ipv6hint: ['2001:db8::1', '2001:db8::2'],
      },
    });
    const svcb = await resolver.query('svc2.p256.example', 'SVCB');
    expect(svcb.answers[0]?.value).toEqual({
      priority: 16,
      target: 'foo.example',
      params: { alpn: ['h2'], 'no-default-alpn': true, port: 53, key65333: '68656c6c6f' },
    });
  });
});
