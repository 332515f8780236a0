/**
 * MX, DMARC, DKIM, MTA-STS, TLS-RPT and BIMI sections against a loopback zone through the real
 * resolver.
 */
import { generateKeyPairSync } from 'node:crypto';
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type HttpsTarget,
  opensslAvailable,
  startHttpsTarget,
} from '../../../../test-utils/src/https-target.js';
import { createResolver } from '../dns/index.js';
import type { DnsResolver } from '../net/dns-types.js';
import { analyseBimi } from './bimi.js';
import { analyseDkim, COMMON_DKIM_SELECTORS, parseSelectors } from './dkim/analyse.js';
import { analyseDmarc } from './dmarc/analyse.js';
import { analyseMtaSts } from './mta-sts.js';
import { analyseMx } from './mx.js';
import { analyseTlsRpt } from './tls-rpt.js';

/** A DKIM key record for a fresh RSA key, split into ≤ 255-octet strings (RFC 1035 §3.3). */
function dkimRecord(bits: number, extra = ''): string[] {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const text = `v=DKIM1; k=rsa;${extra} p=${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`;
  return text.match(/.{1,250}/g) as string[];
}

const zone: Zone = {
  // MX
  'mx-good.test': {
    MX: [
      { preference: 20, exchange: 'mx2.mx-good.test' },
      { preference: 10, exchange: 'mx1.mx-good.test' },
    ],
  },
  'mx1.mx-good.test': { A: ['93.184.216.1'], AAAA: ['2606:2800:220:1::1'] },
  'mx2.mx-good.test': { A: ['93.184.216.2'] },
  'mx-null.test': { MX: [{ preference: 0, exchange: '.' }] },
  'mx-null-mixed.test': {
    MX: [
      { preference: 0, exchange: '.' },
      { preference: 10, exchange: 'mx1.mx-good.test' },
    ],
  },
  'mx-implicit.test': { A: ['93.184.216.5'] },
  'mx-nothing.test': { TXT: ['hello'] },
  'mx-cname.test': { MX: [{ preference: 10, exchange: 'alias.mx-cname.test' }] },
  'alias.mx-cname.test': { CNAME: 'mx1.mx-good.test' },
  'mx-literal.test': { MX: [{ preference: 10, exchange: '93.184.216.1' }] },
  'mx-dup.test': {
    MX: [
      { preference: 10, exchange: 'mx1.mx-good.test' },
      { preference: 20, exchange: 'mx1.mx-good.test' },
    ],
  },
  'mx-dangling.test': { MX: [{ preference: 10, exchange: 'gone.mx-dangling.test' }] },
  'mx-private.test': { MX: [{ preference: 10, exchange: 'lan.mx-private.test' }] },
  'lan.mx-private.test': { A: ['192.168.1.10'] },
  // DMARC
  '_dmarc.reject.test': {
    TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@reject.test; adkim=s'],
  },
  '_dmarc.none.test': { TXT: ['v=DMARC1; p=none'] },
  '_dmarc.pct.test': {
    TXT: ['v=DMARC1; p=quarantine; pct=25; rf=afrf; ri=3600; rua=mailto:d@pct.test'],
  },
  '_dmarc.multi.test': { TXT: ['v=DMARC1; p=none', 'v=DMARC1; p=reject'] },
  '_dmarc.bad.test': { TXT: ['v=spf1 -all'] },
  '_dmarc.org.test': {
    TXT: ['v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@org.test'],
  },
  '_dmarc.external.test': {
    TXT: [
      'v=DMARC1; p=reject; rua=mailto:a@reports.example,mailto:b@authorised.example!10m; ruf=mailto:c@external.test',
    ],
  },
  'external.test._report._dmarc.authorised.example': { TXT: ['v=DMARC1'] },
  '_dmarc.errors.test': {
    TXT: ['v=DMARC1; p=reject; adkim=x; foo=bar; t=y; rua=mailto:a@errors.test'],
  },
  '_dmarc.sp-none.test': { TXT: ['v=DMARC1; p=reject; sp=none; rua=mailto:a@sp-none.test'] },
  // DKIM
  'google._domainkey.dkim.test': { TXT: [dkimRecord(2048)] },
  'custom._domainkey.dkim.test': { TXT: [dkimRecord(1024)] },
  'selector1._domainkey.dkim-weak.test': { TXT: [dkimRecord(512)] },
  'k1._domainkey.dkim-testing.test': { TXT: [dkimRecord(2048, ' t=y;')] },
  's1._domainkey.dkim-revoked.test': { TXT: ['v=DKIM1; p='] },
  'default._domainkey.dkim-sha1.test': { TXT: [dkimRecord(2048, ' h=sha1;')] },
  'hidden._domainkey.dkim-hidden.test': { TXT: [dkimRecord(2048)] },
  '_domainkey.dkim-hidden.test': {},
  // MTA-STS, TLS-RPT, BIMI
  '_mta-sts.sts.test': { TXT: ['v=STSv1; id=20260101T000000'] },
  '_mta-sts.sts-bad.test': { TXT: ['v=STSv1; id=not-valid!'] },
  '_mta-sts.sts-two.test': { TXT: ['v=STSv1; id=a1', 'v=STSv1; id=b2'] },
  '_smtp._tls.sts.test': {
    TXT: ['v=TLSRPTv1; rua=mailto:tls@sts.test,https://reports.sts.test/v1'],
  },
  '_smtp._tls.sts-bad.test': { TXT: ['v=TLSRPTv1; rua=ftp://x.test'] },
  '_smtp._tls.sts-two.test': {
    TXT: ['v=TLSRPTv1; rua=mailto:a@b.test', 'v=TLSRPTv1; rua=mailto:c@d.test'],
  },
  'default._bimi.reject.test': {
    TXT: ['v=BIMI1; l=https://reject.test/logo.svg; a=https://reject.test/vmc.pem'],
  },
  'default._bimi.none.test': { TXT: ['v=BIMI1; l=https://none.test/logo.svg'] },
  'default._bimi.pct.test': { TXT: ['v=BIMI1; l=http://pct.test/logo.svg;'] },
  'default._bimi.declined.test': { TXT: ['v=BIMI1; l=; a=;'] },
};

let server: DnsTestServer;
let resolver: DnsResolver;
beforeAll(async () => {
  server = await startDnsServer({
    zone,
    onQuery: (q) =>
      q.name.startsWith('dead.') || q.name.includes('.dead.')
        ? 'servfail'
        : q.name.endsWith('slow.test')
          ? 'drop'
          : undefined,
  });
  resolver = createResolver({
    servers: [server.address],
    attemptTimeout: 1000,
    tries: 1,
    cache: false,
  });
});
afterAll(() => server.close());

const codes = (a: { findings: { code: string }[] }) => a.findings.map((f) => f.code);

describe('MX', () => {
  test('records sorted by preference with their addresses', async () => {
    const mx = await analyseMx('mx-good.test', { resolver });
    expect(mx.status).toBe('pass');
    expect(mx.records.map((r) => [r.preference, r.exchange, r.addresses])).toEqual([
      [10, 'mx1.mx-good.test', ['93.184.216.1', '2606:2800:220:1::1']],
      [20, 'mx2.mx-good.test', ['93.184.216.2']],
    ]);
  });

  test.each([
    ['mx-null.test', 'pass', 'mx_null', { null_mx: true }],
    ['mx-null-mixed.test', 'fail', 'mx_null_mixed', { null_mx: true }],
    [
      'mx-implicit.test',
      'warn',
      'mx_implicit',
      { implicit_mx: true, implicit_addresses: ['93.184.216.5'] },
    ],
    ['mx-nothing.test', 'fail', 'mx_missing', {}],
    ['nowhere.test', 'fail', 'mx_domain_missing', {}],
    ['mx-cname.test', 'warn', 'mx_cname', {}],
    ['mx-literal.test', 'fail', 'mx_ip_literal', {}],
    ['mx-dup.test', 'warn', 'mx_duplicate', {}],
    ['mx-dangling.test', 'fail', 'mx_no_address', {}],
    ['mx-private.test', 'warn', 'mx_private_address', {}],
  ])('%s → %s (%s)', async (domain, status, code, extra) => {
    const mx = await analyseMx(domain, { resolver });
    expect(mx.status).toBe(status);
    expect(codes(mx)).toContain(code);
    expect(mx).toMatchObject(extra);
  });

  test('an alias exchange reports its canonical name', async () => {
    const mx = await analyseMx('mx-cname.test', { resolver });
    expect(mx.records[0]).toMatchObject({
      cname: 'mx1.mx-good.test',
      addresses: ['93.184.216.1', '2606:2800:220:1::1'],
    });
  });

  test('a failing MX lookup is an upstream error', async () => {
    await expect(analyseMx('dead.test', { resolver })).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
    });
  });
});

describe('section budgets', () => {
  test('`timeout` bounds a section as a whole (TimeoutError), before any query gives up', async () => {
    const started = Date.now();
    await expect(analyseTlsRpt('slow.test', { resolver, timeout: 200 })).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: 'email-auth',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  test('without it, the same slow query is a finding of the section', async () => {
    const a = await analyseTlsRpt('slow.test', { resolver });
    expect(a.status).toBe('fail');
  });
});

describe('DMARC', () => {
  test('a reject policy with strict DKIM alignment', async () => {
    const d = await analyseDmarc('reject.test', { resolver });
    expect(d).toMatchObject({
      status: 'pass',
      record_name: '_dmarc.reject.test',
      source: 'domain',
      applied_policy: 'reject',
      tags: { p: 'reject', adkim: 's' },
      policy: { p: 'reject', sp: 'reject', aspf: 'r', adkim: 's', pct: 100 },
      rua: [
        {
          uri: 'mailto:dmarc@reject.test',
          domain: 'reject.test',
          external: false,
          authorized: null,
        },
      ],
    });
  });

  test('a subdomain falls back to the organisational domain and gets sp', async () => {
    const d = await analyseDmarc('mail.sub.org.test', { resolver });
    expect(d).toMatchObject({
      source: 'organizational_domain',
      organizational_domain: 'org.test',
      record_name: '_dmarc.org.test',
      applied_policy: 'quarantine',
    });
    expect(codes(d)).toContain('dmarc_inherited');
  });

  test.each([
    ['none.test', 'warn', ['dmarc_policy_none', 'dmarc_no_rua']],
    ['pct.test', 'warn', ['dmarc_pct', 'dmarc_removed_tag']],
    ['multi.test', 'fail', ['dmarc_multiple']],
    ['bad.test', 'fail', ['dmarc_invalid']],
    ['missing.test', 'fail', ['dmarc_missing']],
    ['errors.test', 'warn', ['dmarc_syntax', 'dmarc_unknown_tag', 'dmarc_testing']],
    ['sp-none.test', 'warn', ['dmarc_subdomain_none']],
    ['dead.test', 'fail', ['dmarc_dns_error']],
  ])('%s → %s %j', async (domain, status, expected) => {
    const d = await analyseDmarc(domain, { resolver });
    expect(d.status).toBe(status);
    for (const code of expected) expect(codes(d)).toContain(code);
  });

  test('external report destinations need the _report._dmarc authorisation (RFC 7489 §7.1)', async () => {
    const d = await analyseDmarc('external.test', { resolver });
    expect(d.rua).toEqual([
      {
        uri: 'mailto:a@reports.example',
        size: null,
        unit: null,
        domain: 'reports.example',
        external: true,
        authorized: false,
      },
      {
        uri: 'mailto:b@authorised.example',
        size: '10',
        unit: 'm',
        domain: 'authorised.example',
        external: true,
        authorized: true,
      },
    ]);
    expect(d.ruf[0]).toMatchObject({ external: false, authorized: null });
    const unauthorised = d.findings.filter((f) => f.code === 'dmarc_external_unauthorized');
    expect(unauthorised).toHaveLength(1);
    expect(unauthorised[0]?.message).toContain('external.test._report._dmarc.reports.example');
  });
});

describe('DKIM', () => {
  test('requested selectors come first; common ones found are listed with key sizes', async () => {
    const d = await analyseDkim('dkim.test', { resolver, selectors: 'custom, nothere' });
    expect(d.selectors_checked.slice(0, 3)).toEqual(['custom', 'nothere', 'google']);
    expect(d.selectors_checked).toHaveLength(2 + COMMON_DKIM_SELECTORS.length);
    expect(d.selectors.map((s) => [s.selector, s.source, s.found, s.key_bits, s.status])).toEqual([
      ['custom', 'requested', true, 1024, 'warn'],
      ['nothere', 'requested', false, null, 'fail'],
      ['google', 'common', true, 2048, 'pass'],
    ]);
    expect(d.status).toBe('fail');
    expect(d.domainkey_exists).toBeNull();
  });

  test.each([
    ['dkim-weak.test', 'fail', 'RSA 512-bit key'],
    ['dkim-testing.test', 'warn', 't=y'],
    ['dkim-revoked.test', 'pass', 'revoked'],
    ['dkim-sha1.test', 'warn', 'SHA-256'],
  ])('%s → %s (%s)', async (domain, status, reason) => {
    const d = await analyseDkim(domain, { resolver });
    expect(d.selectors[0]?.reason).toContain(reason);
    expect(d.status).toBe(status);
  });

  test('no key found: the _domainkey probe tells NOERROR from NXDOMAIN (RFC 8020)', async () => {
    const hidden = await analyseDkim('dkim-hidden.test', { resolver });
    expect(hidden).toMatchObject({ status: 'warn', domainkey_exists: true, selectors: [] });
    expect(codes(hidden)).toEqual(['dkim_unknown_selector']);
    const none = await analyseDkim('nokeys.test', { resolver });
    expect(none).toMatchObject({ status: 'warn', domainkey_exists: false });
    expect(codes(none)).toEqual(['dkim_not_found']);
    const found = await analyseDkim('dkim-hidden.test', { resolver, selectors: ['hidden'] });
    expect(found).toMatchObject({ status: 'pass', domainkey_exists: null });
  });

  test.each([
    ['a,b,,c', ['a', 'b', 'c']],
    [' Sel1 , sel1 ', ['sel1']],
    ['s2048.eu', ['s2048.eu']],
    [
      ['x', 'y'],
      ['x', 'y'],
    ],
  ])('parseSelectors(%j)', (input, expected) => {
    expect(parseSelectors(input)).toEqual(expected);
  });

  test.each([
    ['bad selector'],
    ['a..b'],
    ['-x'],
    [
      Array(11)
        .fill('s')
        .map((s, i) => s + i)
        .join(','),
    ],
  ])('parseSelectors rejects %j', (input) => {
    expect(() => parseSelectors(input)).toThrow(/dkim_selector/);
  });
});

describe('MTA-STS, TLS-RPT and BIMI', () => {
  test.each([
    ['sts.test', 'pass', 'mta_sts_ok'],
    ['sts-bad.test', 'fail', 'mta_sts_id'],
    ['sts-two.test', 'fail', 'mta_sts_multiple'],
    ['none.test', 'none', 'mta_sts_missing'],
  ])('MTA-STS record %s → %s', async (domain, status, code) => {
    const a = await analyseMtaSts(domain, { resolver, fetchPolicy: false });
    expect(a.status).toBe(status);
    expect(codes(a)).toContain(code);
    expect(a.policy_fetched).toBe(false);
    expect(a.policy_url).toBe(`https://mta-sts.${domain}/.well-known/mta-sts.txt`);
  });

  test('MTA-STS id is reported', async () => {
    expect((await analyseMtaSts('sts.test', { resolver, fetchPolicy: false })).id).toBe(
      '20260101T000000',
    );
  });

  test.each([
    ['sts.test', 'pass', 'tls_rpt_ok'],
    ['sts-bad.test', 'fail', 'tls_rpt_uri'],
    ['sts-two.test', 'fail', 'tls_rpt_multiple'],
    ['none.test', 'none', 'tls_rpt_missing'],
  ])('TLS-RPT %s → %s', async (domain, status, code) => {
    const a = await analyseTlsRpt(domain, { resolver });
    expect(a.status).toBe(status);
    expect(codes(a)).toContain(code);
  });

  test('TLS-RPT destinations are listed', async () => {
    expect((await analyseTlsRpt('sts.test', { resolver })).rua).toEqual([
      'mailto:tls@sts.test',
      'https://reports.sts.test/v1',
    ]);
  });

  test.each([
    ['reject.test', 'pass', 'bimi_ok'],
    ['none.test', 'warn', 'bimi_dmarc'],
    ['pct.test', 'fail', 'bimi_logo'],
    ['declined.test', 'pass', 'bimi_declined'],
    ['sts.test', 'none', 'bimi_missing'],
  ])('BIMI %s → %s', async (domain, status, code) => {
    const dmarc = await analyseDmarc(domain, { resolver });
    const a = await analyseBimi(domain, { resolver, dmarc });
    expect(a.status).toBe(status);
    expect(codes(a)).toContain(code);
  });
});

describe.skipIf(!opensslAvailable())(
  'MTA-STS policy file (RFC 8461 §3.3) through the SSRF-safe client',
  () => {
    let https: HttpsTarget;
    let reply: { status: number; type: string; body: string; location?: string };
    const policy = (mode: string, mx: string[], maxAge = 604800) =>
      `version: STSv1\r\nmode: ${mode}\r\n${mx.map((m) => `mx: ${m}\r\n`).join('')}max_age: ${maxAge}\r\n`;

    beforeAll(async () => {
      https = await startHttpsTarget({
        names: ['mta-sts.sts.test'],
        routes: {
          '/.well-known/mta-sts.txt': (_req, res) => {
            res.writeHead(reply.status, {
              'content-type': reply.type,
              ...(reply.location ? { location: reply.location } : {}),
            });
            res.end(reply.body);
          },
        },
      });
      zone['mta-sts.sts.test'] = { A: ['127.0.0.1'] };
    });
    afterAll(() => https.close());

    const fetchFor = (extra: Partial<Parameters<typeof analyseMtaSts>[1]> = {}) =>
      analyseMtaSts('sts.test', {
        resolver,
        mxHosts: ['mx1.sts.test', 'mx2.backup.test'],
        allowedTargets: ['127.0.0.0/8'],
        ca: https.cert,
        policyUrl: (d) => `https://mta-sts.${d}:${https.port}/.well-known/mta-sts.txt`,
        ...extra,
      });

    test('an enforced policy that covers every MX host passes', async () => {
      reply = {
        status: 200,
        type: 'text/plain; charset=utf-8',
        body: policy('enforce', ['*.sts.test', 'mx2.backup.test']),
      };
      const a = await fetchFor();
      expect(a).toMatchObject({
        status: 'pass',
        policy_fetched: true,
        policy: {
          version: 'STSv1',
          mode: 'enforce',
          mx: ['*.sts.test', 'mx2.backup.test'],
          max_age: 604800,
        },
        policy_error: null,
        mx_not_covered: [],
      });
    });

    test.each([
      [
        { status: 200, type: 'text/plain', body: policy('enforce', ['*.sts.test']) },
        'fail',
        'mta_sts_mx_mismatch',
      ],
      [
        { status: 200, type: 'text/plain', body: policy('testing', ['*.sts.test']) },
        'warn',
        'mta_sts_testing',
      ],
      [
        {
          status: 200,
          type: 'text/plain',
          body: policy('enforce', ['*.sts.test', '*.backup.test'], 300),
        },
        'warn',
        'mta_sts_max_age',
      ],
      [
        { status: 200, type: 'text/plain', body: 'version: STSv1\nmode: enforce\n' },
        'fail',
        'mta_sts_policy_syntax',
      ],
      [{ status: 404, type: 'text/plain', body: 'no' }, 'fail', 'mta_sts_policy_unavailable'],
      [
        { status: 200, type: 'text/html', body: policy('enforce', ['*.sts.test']) },
        'fail',
        'mta_sts_policy_unavailable',
      ],
      [
        { status: 301, type: 'text/plain', body: '', location: '/elsewhere' },
        'fail',
        'mta_sts_policy_unavailable',
      ],
    ])('%j → %s (%s)', async (answer, status, code) => {
      reply = answer;
      const a = await fetchFor();
      expect(a.status).toBe(status);
      expect(codes(a)).toContain(code);
    });

    test('the mismatching MX hosts are listed', async () => {
      reply = { status: 200, type: 'text/plain', body: policy('enforce', ['*.sts.test']) };
      expect((await fetchFor()).mx_not_covered).toEqual(['mx2.backup.test']);
    });

    test('an untrusted certificate is refused (RFC 8461 §3.3)', async () => {
      reply = { status: 200, type: 'text/plain', body: policy('enforce', ['*.sts.test']) };
      const a = await fetchFor({ ca: undefined });
      expect(a.policy_fetched).toBe(false);
      expect(a.policy_error).toMatch(/certificate|self.signed|tls/i);
    });

    test('a policy host on a private address is never contacted (CONTRACT §4)', async () => {
      const before = https.connections;
      const a = await fetchFor({ allowedTargets: [] });
      expect(a.policy_fetched).toBe(false);
      expect(a.policy_error).toContain('Target not allowed');
      expect(https.connections).toBe(before);
    });
  },
);
