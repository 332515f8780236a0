/** `netdiag dns`, `netdiag rdns`, `netdiag blacklist` against a loopback DNS server. */
import { DNSBL_ZONES, dnsblQueryName, INVALID_IP_MESSAGE } from '@netdiag/core';
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureIO } from '../../test/helpers.js';
import { EXIT, run } from '../index.js';

const zone: Zone = {
  'example.test': {
    A: ['192.0.2.10'],
    MX: [{ preference: 10, exchange: 'mail.example.test' }],
    TXT: ['v=spf1 -all'],
    ttl: 300,
  },
  '_sip._tcp.example.test': {
    SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }],
  },
  '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.test'] },
  'mail.example.test': { A: ['192.0.2.10'] },
  'servfail.test': { A: ['192.0.2.1'] },
  'silent.test': { A: ['192.0.2.1'] },
};
for (const list of DNSBL_ZONES) {
  zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'], TXT: ['test point'] };
}

let dns: DnsTestServer;
let env: Record<string, string>;
beforeAll(async () => {
  dns = await startDnsServer({
    zone,
    onQuery: (q) =>
      q.name === 'servfail.test' ? 'servfail' : q.name === 'silent.test' ? 'drop' : undefined,
  });
  env = { NETDIAG_DNS_SERVERS: dns.address };
});
afterAll(() => dns.close());

async function cli(...argv: string[]) {
  const capture = captureIO(env);
  const code = await run(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe('netdiag dns', () => {
  test('--json prints exactly the /api/dns data', async () => {
    const { code, stdout } = await cli('dns', 'example.test', '--type', 'mx', '--json');
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(stdout)).toEqual({
      domain: 'example.test',
      type: 'MX',
      rcode: 'NOERROR',
      records: [{ name: 'example.test', type: 15, TTL: 300, data: '10 mail.example.test.' }],
    });
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  test('--v1 gives the v1 shape and allows SRV', async () => {
    const { code, stdout } = await cli(
      'dns',
      '_sip._tcp.example.test',
      '-t',
      'SRV',
      '--v1',
      '--json',
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(stdout)).toMatchObject({
      records: [
        { name: '_sip._tcp.example.test.', ttl: 300, data: '10 60 5060 sip.example.test.' },
      ],
      authority: [],
    });
  });

  test('human output reads like an answer section', async () => {
    const { stdout } = await cli('dns', 'example.test', '-t', 'TXT');
    expect(stdout).toBe('example.test TXT: NOERROR\nexample.test  300  TXT  "v=spf1 -all"\n');
  });

  test('NXDOMAIN is exit 0 with a message', async () => {
    const { code, stdout } = await cli('dns', 'nope.example.test');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/NXDOMAIN \(the domain does not exist\)/);
  });

  test.each([
    [['dns', '192.0.2.1'], /not an IP address/],
    [['dns', 'example.test', '-t', 'HINFO'], /unknown record type HINFO; use one of A, AAAA/],
    [['dns', 'a..test'], /empty label/],
  ])('%j → exit 2', async (argv, message) => {
    const { code, stderr, stdout } = await cli(...argv);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  test('SERVFAIL → exit 3', async () => {
    const { code, stderr } = await cli('dns', 'servfail.test');
    expect(code).toBe(EXIT.network);
    expect(stderr).toMatch(/SERVFAIL/);
  });
});

describe('netdiag dns: dig habits', () => {
  test('every type of both families without --v1 (SRV, PTR), in the /api/dns shape', async () => {
    const { code, stdout } = await cli('dns', '_sip._tcp.example.test', '-t', 'SRV', '--json');
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(stdout)).toEqual({
      domain: '_sip._tcp.example.test',
      type: 'SRV',
      rcode: 'NOERROR',
      records: [
        {
          name: '_sip._tcp.example.test',
          type: 33,
          TTL: 300,
          data: '10 60 5060 sip.example.test.',
        },
      ],
    });
  });

  test('several types in one call, as operands and -t lists; --short prints data only', async () => {
    const { code, stdout } = await cli('dns', 'example.test', 'MX', '-t', 'txt,a', '--short');
    expect(code).toBe(EXIT.ok);
    // Input order: -t types first, then operand types (as given), one answer each.
    expect(stdout).toBe('"v=spf1 -all"\n192.0.2.10\n10 mail.example.test.\n');
    const jsonl = await cli('dns', 'example.test', 'A', 'MX', '--format', 'jsonl');
    const items = jsonl.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(items.map((i) => [i.input, i.data.type])).toEqual([
      ['example.test A', 'A'],
      ['example.test MX', 'MX'],
    ]);
  });

  test('@server asks that server, whatever NETDIAG_DNS_SERVERS says', async () => {
    const capture = captureIO({ NETDIAG_DNS_SERVERS: '127.0.0.1:9' });
    const code = await run(['dns', `@${dns.address}`, 'example.test', '--short'], capture.io);
    expect(capture.stderr()).toBe('');
    expect(code).toBe(EXIT.ok);
    expect(capture.stdout()).toBe('192.0.2.10\n');
    const bad = captureIO();
    expect(await run(['dns', '@ns1.example', 'example.test'], bad.io)).toBe(EXIT.badInput);
    expect(bad.stderr()).toMatch(/give the DNS server as an IP address/);
  });

  test('-x ADDR asks the PTR of the reverse name', async () => {
    const { code, stdout } = await cli('dns', '-x', '192.0.2.10');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^10\.2\.0\.192\.in-addr\.arpa PTR: NOERROR\n/);
    expect(stdout).toContain('mail.example.test.');
  });

  test('--tcp asks over TCP from the first query', async () => {
    const before = dns.queries.length;
    const { code, stdout } = await cli('dns', 'example.test', '--tcp', '--short');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toBe('192.0.2.10\n');
    expect(dns.queries.slice(before).map((q) => q.transport)).toEqual(['tcp']);
  });

  test('--timeout bounds a query; the error says it in DNS terms', async () => {
    const started = Date.now();
    const { code, stderr, stdout } = await cli('dns', 'silent.test', '--timeout', '1');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(code).toBe(EXIT.network);
    expect(stdout).toBe('');
    expect(stderr).toBe('netdiag: dns: no answer within 1 s\n');
  });

  test('a server that refuses: its address in the message (the CLI user chose it)', async () => {
    const capture = captureIO({ NETDIAG_DNS_SERVERS: '127.0.0.1:9' });
    expect(await run(['dns', 'example.test'], capture.io)).toBe(EXIT.network);
    expect(capture.stderr()).toBe(
      'netdiag: dns: cannot reach 127.0.0.1:9: connection refused (nothing listens on that port)\n',
    );
    const servfail = await cli('dns', 'servfail.test');
    expect(servfail.stderr).toBe(
      `netdiag: dns: ${dns.address} answered SERVFAIL for servfail.test A\n`,
    );
  });
});

describe('netdiag rdns', () => {
  test('--json and human output', async () => {
    const json = await cli('rdns', '192.0.2.10', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      ip: '192.0.2.10',
      hostname: 'mail.example.test',
      ptr_record: '10.2.0.192.in-addr.arpa',
      hostnames: ['mail.example.test'],
      fcrdns: true,
      rcode: 'NOERROR',
    });
    const human = await cli('rdns', '192.0.2.10');
    expect(human.stdout).toBe(
      '192.0.2.10 → mail.example.test (forward-confirmed)\nPTR name: 10.2.0.192.in-addr.arpa\n',
    );
  });

  test('bad IP → exit 2 with the SPEC message', async () => {
    const { code, stderr } = await cli('rdns', 'not-an-ip');
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toContain(INVALID_IP_MESSAGE);
  });
});

describe('netdiag blacklist', () => {
  test('--json prints the /api/blacklist data', async () => {
    const { code, stdout } = await cli('blacklist', '127.0.0.2', '--json');
    expect(code).toBe(EXIT.ok);
    const data = JSON.parse(stdout);
    expect(data).toMatchObject({ ip: '127.0.0.2', listed_count: 12, status: 'LISTED' });
    expect(data.results).toHaveLength(12);
  });

  test('human output: a summary and one line per list', async () => {
    const { stdout } = await cli('blacklist', '192.0.2.200');
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(
      '192.0.2.200: CLEAN on 0 of 12 lists checked (0 unavailable, 12 configured)',
    );
    expect(lines).toHaveLength(13);
    expect(lines[1]).toMatch(/^clean\s+Spamhaus ZEN\s+zen\.spamhaus\.org$/);
  });

  test('bad IP → exit 2', async () => {
    const { code } = await cli('blacklist', '1.2.3');
    expect(code).toBe(EXIT.badInput);
  });
});
