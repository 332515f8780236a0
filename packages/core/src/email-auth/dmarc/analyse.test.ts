/**
 * DMARC record selection at `_dmarc.<domain>` with case-insensitive tag names (RFC 7489 §6.4),
 * through the real resolver and a loopback DNS fixture.
 */
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DnsResolver } from '../../net/dns-types.js';
import { createResolver } from '../../net/resolver.js';
import { analyseDmarc } from './analyse.js';

const zone: Zone = {
  '_dmarc.upper.test': {
    TXT: ['V=DMARC1; P=reject; RUA=mailto:Dmarc-Reports@Upper.test; ADKIM=S'],
  },
  '_dmarc.mixed-case.test': { TXT: ['v=DMARC1; p=none', 'V=DMARC1; P=reject'] },
  '_dmarc.lower-value.test': { TXT: ['v=dmarc1; p=reject'] },
  '_dmarc.org-upper.test': {
    TXT: ['V=DMARC1; P=reject; SP=quarantine; RUA=mailto:d@org-upper.test'],
  },
  '_dmarc.ext-upper.test': {
    TXT: ['V=DMARC1; P=reject; RUA=mailto:a@Reports.Example'],
  },
  'ext-upper.test._report._dmarc.reports.example': { TXT: ['V=DMARC1'] },
  '_dmarc.spaced.test': { TXT: [' v=DMARC1; p=reject; rua=mailto:d@spaced.test'] },
  '_dmarc.tab-spaced.test': { TXT: ['\tv=DMARC1; p=quarantine'] },
  '_dmarc.spaced-and-valid.test': { TXT: [' v=DMARC1; p=reject', 'v=DMARC1; p=none'] },
};

let server: DnsTestServer;
let resolver: DnsResolver;
beforeAll(async () => {
  server = await startDnsServer({ zone });
  resolver = createResolver({ servers: [server.address], cache: false, attemptTimeout: 1000 });
});
afterAll(async () => {
  await server.close();
});

describe('analyseDmarc: tag names are case-insensitive', () => {
  test('"V=DMARC1; P=reject" is the DMARC record and its policy applies', async () => {
    const d = await analyseDmarc('upper.test', { resolver });
    expect(d).toMatchObject({
      record: 'V=DMARC1; P=reject; RUA=mailto:Dmarc-Reports@Upper.test; ADKIM=S',
      record_name: '_dmarc.upper.test',
      source: 'domain',
      records_found: 1,
      tags: { v: 'DMARC1', p: 'reject', adkim: 's' },
      applied_policy: 'reject',
      errors: [],
      unknown_tags: [],
    });
    // The URI keeps its case; only the domain used for the external check is lower-cased.
    expect(d.rua).toEqual([
      {
        uri: 'mailto:Dmarc-Reports@Upper.test',
        size: null,
        unit: null,
        domain: 'upper.test',
        external: false,
        authorized: null,
      },
    ]);
    expect(d.findings.map((f) => f.code)).not.toContain('dmarc_invalid');
    expect(d.findings.map((f) => f.code)).toContain('dmarc_enforced');
  });

  test('"v=" and "V=" records at one name are two DMARC records', async () => {
    const d = await analyseDmarc('mixed-case.test', { resolver });
    expect(d.records_found).toBe(2);
    expect(d.status).toBe('fail');
    expect(d.findings.map((f) => f.code)).toContain('dmarc_multiple');
  });

  test('"v=dmarc1" is not a DMARC record: the value is case-sensitive', async () => {
    const d = await analyseDmarc('lower-value.test', { resolver });
    expect(d.records_found).toBe(0);
    expect(d.record).toBeNull();
    expect(d.findings.map((f) => f.code)).toEqual(['dmarc_invalid']);
  });

  test('an upper-case record is inherited from the organisational domain', async () => {
    const d = await analyseDmarc('mail.org-upper.test', { resolver });
    expect(d).toMatchObject({
      source: 'organizational_domain',
      record_name: '_dmarc.org-upper.test',
      applied_policy: 'quarantine',
    });
  });

  test('"V=DMARC1" authorises an external report destination (RFC 7489 §7.1)', async () => {
    const d = await analyseDmarc('ext-upper.test', { resolver });
    expect(d.rua).toEqual([
      expect.objectContaining({
        uri: 'mailto:a@Reports.Example',
        domain: 'reports.example',
        external: true,
        authorized: true,
      }),
    ]);
  });
});

// Issue 41 item 9: RFC 7489 §6.6.3 discards a record that does not begin with "v=DMARC1", so
// one with whitespace before it is no policy (checkdmarc reports it as an error).
describe('analyseDmarc: a record that starts with whitespace is discarded', () => {
  test.each([
    ['spaced.test', ' v=DMARC1; p=reject; rua=mailto:d@spaced.test'],
    ['tab-spaced.test', '\tv=DMARC1; p=quarantine'],
  ])('%s: no policy applies, and the finding names the leading whitespace', async (domain) => {
    const d = await analyseDmarc(domain, { resolver });
    expect(d).toMatchObject({
      status: 'fail',
      record: null,
      records_found: 0,
      tags: {},
      policy: null,
      applied_policy: null,
      record_name: `_dmarc.${domain}`,
    });
    expect(d.findings.map((f) => [f.severity, f.code])).toEqual([
      ['fail', 'dmarc_leading_whitespace'],
    ]);
    expect(d.findings[0]?.message).toMatch(/starts with whitespace/);
    expect(d.findings[0]?.message).toContain('RFC 7489 §6.6.3');
  });

  test('beside a valid record, the valid one applies and the spaced one is named', async () => {
    const d = await analyseDmarc('spaced-and-valid.test', { resolver });
    expect(d).toMatchObject({ record: 'v=DMARC1; p=none', records_found: 1 });
    expect(d.applied_policy).toBe('none');
    const spaced = d.findings.find((f) => f.code === 'dmarc_leading_whitespace');
    expect(spaced?.severity).toBe('warn');
    expect(d.findings.map((f) => f.code)).not.toContain('dmarc_multiple');
  });
});
