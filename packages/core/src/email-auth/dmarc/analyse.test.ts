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
