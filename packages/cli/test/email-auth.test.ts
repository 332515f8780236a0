import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../http/src/app.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

let dns: DnsTestServer;
beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      'example.com': {
        MX: [{ preference: 10, exchange: 'mx.example.com' }],
        TXT: ['v=spf1 ip4:93.184.216.0/24 include:_spf.example.com ~all'],
      },
      'mx.example.com': { A: ['93.184.216.34'] },
      '_spf.example.com': { TXT: ['v=spf1 ip4:93.184.217.0/24 ptr -all'] },
      '_dmarc.example.com': { TXT: ['v=DMARC1; p=none'] },
      'broken.example': { TXT: ['v=spf1 -all'] },
    },
    onQuery: (q) => (q.name === 'broken.example' ? 'servfail' : undefined),
  });
});
afterAll(() => dns.close());

const env = () => ({ NETDIAG_DNS_SERVERS: dns.address });
/** checked_at differs between two runs; everything else must be identical. */
const stable = (data: Record<string, unknown>) => ({ ...data, checked_at: '' });

describe('netdiag email-auth', () => {
  test('--json prints exactly the API data, on one line', async () => {
    const cap = captureIO(env());
    expect(await run(['email-auth', 'example.com', '--json'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout().trim().split('\n')).toHaveLength(1);
    const cli = JSON.parse(cap.stdout());
    const api = await request(createApp({ logLevel: 'silent', dnsServers: [dns.address] }))
      .get('/api/email-auth')
      .query({ domain: 'example.com' });
    expect(stable(cli)).toEqual(stable(api.body.data));
  });

  test('human output: grade, sections, SPF terms and findings', async () => {
    const cap = captureIO(env());
    expect(await run(['email-auth', 'example.com'], cap.io)).toBe(EXIT.ok);
    const out = cap.stdout();
    expect(out).toMatch(/^example\.com: grade [A-F] \(\d+\/100\)\n/);
    expect(out).toContain(
      '  SPF      warn  v=spf1 ip4:93.184.216.0/24 include:_spf.example.com ~all (2/10 lookups, 0/2 void)',
    );
    expect(out).toContain('  DMARC    warn  p=none (_dmarc.example.com)');
    expect(out).toContain('  MX       pass  10 mx.example.com');
    expect(out).toMatch(/\n {4}ptr +1 {2}warn "ptr" is slow/);
    expect(out).toContain('[warn] DMARC: the policy is "none"');
    expect(out).toContain('Grading: Points per section');
  });

  test('--ip adds the evaluation', async () => {
    const cap = captureIO(env());
    const code = await run(
      ['email-auth', 'example.com', '--ip', '93.184.217.9', '--sender', 'a@example.com', '--json'],
      cap.io,
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout()).spf.evaluation).toMatchObject({
      result: 'pass',
      sender: 'a@example.com',
    });
  });

  test.each([
    [['email-auth', 'not a domain'], EXIT.badInput, 'the domain must be'],
    [['email-auth', 'example.com', '--ip', 'x'], EXIT.badInput, 'Invalid IP address'],
    [['email-auth', 'example.com', '--helo', 'h.example.com'], EXIT.badInput, 'with --ip'],
    [['email-auth', 'broken.example'], EXIT.network, 'SERVFAIL'],
  ])('%j exits %i', async (argv, exit, message) => {
    const cap = captureIO(env());
    expect(await run(argv, cap.io)).toBe(exit);
    expect(cap.stderr()).toContain(message);
    expect(cap.stdout()).toBe('');
  });
});

describe('netdiag spf', () => {
  test('--json prints the evaluation', async () => {
    const cap = captureIO(env());
    expect(await run(['spf', 'example.com', '--ip', '198.51.100.1', '--json'], cap.io)).toBe(
      EXIT.ok,
    );
    expect(JSON.parse(cap.stdout())).toMatchObject({
      result: 'softfail',
      domain: 'example.com',
      sender: 'postmaster@example.com',
      helo: 'example.com',
      matched_term: '~all',
      dns_lookups: 2,
    });
  });

  test('human output shows the trace', async () => {
    const cap = captureIO(env());
    expect(await run(['spf', 'example.com', '--ip', '93.184.217.1'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe(
      [
        'SPF pass for 93.184.217.1 at example.com (MAIL FROM postmaster@example.com, HELO example.com)',
        '  "include:_spf.example.com" in the record of example.com matched: _spf.example.com returned pass',
        '  1/10 lookups, 0/2 void',
        '    example.com: v=spf1 ip4:93.184.216.0/24 include:_spf.example.com ~all',
        '    ip4:93.184.216.0/24 → no_match: 93.184.217.1 is not in 93.184.216.0/24',
        '      _spf.example.com: v=spf1 ip4:93.184.217.0/24 ptr -all',
        '      ip4:93.184.217.0/24 → match: 93.184.217.1 is in 93.184.217.0/24',
        '    include:_spf.example.com → match: _spf.example.com returned pass',
        '',
      ].join('\n'),
    );
  });

  test('--ip is required', async () => {
    const cap = captureIO(env());
    expect(await run(['spf', 'example.com'], cap.io)).toBe(EXIT.badInput);
  });
});
