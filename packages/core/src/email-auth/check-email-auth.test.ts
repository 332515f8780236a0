import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createResolver } from '../dns/index.js';
import type { DnsResolver } from '../net/dns-types.js';
import { checkEmailAuth } from './check-email-auth.js';
import { GRADE_RULE } from './summary.js';

const zone: Zone = {
  'example.test': {
    MX: [{ preference: 10, exchange: 'mx.example.test' }],
    TXT: ['v=spf1 ip4:93.184.216.0/24 include:_spf.example.test -all'],
  },
  'mx.example.test': { A: ['93.184.216.34'] },
  '_spf.example.test': { TXT: ['v=spf1 ip4:93.184.217.0/24 -all'] },
  '_dmarc.example.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@example.test'] },
  'google._domainkey.example.test': {
    TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='],
  },
  '_mta-sts.example.test': { TXT: ['v=STSv1; id=1'] },
  '_smtp._tls.example.test': { TXT: ['v=TLSRPTv1; rua=mailto:tls@example.test'] },
  'default._bimi.example.test': {
    TXT: ['v=BIMI1; l=https://example.test/l.svg; a=https://example.test/a.pem'],
  },
  'bare.test': { A: ['93.184.216.99'] },
  'timeout-mx.test': { TXT: ['v=spf1 -all'] },
};

let server: DnsTestServer;
let resolver: DnsResolver;
beforeAll(async () => {
  server = await startDnsServer({
    zone,
    onQuery: (q) => (q.name === 'timeout-mx.test' && q.type === 'MX' ? 'drop' : undefined),
  });
  resolver = createResolver({
    servers: [server.address],
    attemptTimeout: 1000,
    tries: 1,
    cache: false,
  });
});
afterAll(() => server.close());

describe('checkEmailAuth', () => {
  test('a fully configured domain gets every section and an A', async () => {
    const report = await checkEmailAuth(
      { domain: 'Example.TEST.' },
      { resolver, now: () => Date.UTC(2026, 10, 21), fetchMtaStsPolicy: false },
    );
    expect(report.domain).toBe('example.test');
    expect(report.checked_at).toBe('2026-11-21T00:00:00.000Z');
    expect(report.summary.sections.map((s) => [s.section, s.status])).toEqual([
      ['spf', 'pass'],
      ['dmarc', 'pass'],
      ['dkim', 'pass'],
      ['mx', 'pass'],
      ['mta_sts', 'pass'],
      ['tls_rpt', 'pass'],
      ['bimi', 'pass'],
    ]);
    expect(report.summary).toMatchObject({ score: 100, grade: 'A', rule: GRADE_RULE });
    expect(report.spf.evaluation).toBeNull();
    expect(report.dkim.selectors[0]).toMatchObject({
      selector: 'google',
      key_type: 'ed25519',
      key_bits: 256,
    });
  });

  test('with ip, sender and helo the SPF evaluation is included', async () => {
    const report = await checkEmailAuth(
      {
        domain: 'example.test',
        ip: '93.184.217.5',
        sender: 'alice@example.test',
        helo: 'mx.example.test',
      },
      { resolver },
    );
    expect(report.spf.evaluation).toMatchObject({
      result: 'pass',
      domain: 'example.test',
      sender: 'alice@example.test',
      helo: 'mx.example.test',
      matched_term: 'include:_spf.example.test',
    });
    const other = await checkEmailAuth({ domain: 'example.test', ip: '2001:db8::1' }, { resolver });
    expect(other.spf.evaluation).toMatchObject({
      result: 'fail',
      sender: 'postmaster@example.test',
    });
  });

  test('the MTA-STS policy is fetched by default; an unreachable one is a finding', async () => {
    const report = await checkEmailAuth({ domain: 'example.test' }, { resolver });
    expect(report.mta_sts).toMatchObject({ status: 'fail', policy_fetched: false });
    expect(report.mta_sts.policy_error).toContain('mta-sts.example.test');
  });

  test('a bare domain fails SPF and DMARC and is capped at D or below', async () => {
    const report = await checkEmailAuth({ domain: 'bare.test' }, { resolver });
    expect(report.spf.status).toBe('fail');
    expect(report.dmarc.status).toBe('fail');
    expect(report.mx.implicit_mx).toBe(true);
    expect(['D', 'F']).toContain(report.summary.grade);
  });

  test.each([
    [{ domain: '' }, 'domain'],
    [{ domain: 'not a domain' }, 'domain'],
    [{ domain: '192.0.2.1' }, 'domain'],
    [{ domain: 'example.test', ip: '999.1.1.1' }, 'ip'],
    [{ domain: 'example.test', sender: 'a@example.test' }, 'ip'],
    [{ domain: 'example.test', dkimSelectors: 'bad selector' }, 'dkim_selector'],
  ])('bad input %j is an InvalidInputError on %s', async (input, param) => {
    await expect(checkEmailAuth(input, { resolver })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      param,
    });
  });

  test("the domain's own lookups timing out is a TimeoutError", async () => {
    await expect(checkEmailAuth({ domain: 'timeout-mx.test' }, { resolver })).rejects.toMatchObject(
      {
        code: 'UPSTREAM_TIMEOUT',
      },
    );
  });
});
