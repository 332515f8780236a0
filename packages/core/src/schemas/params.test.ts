/**
 * Parameter schemas never admit what the server refuses: strings generated from each JSON
 * Schema pattern pass the core validator behind the parameter (a schema-driven fuzzer must find
 * no "valid by schema, 400 from the server" input). What JSON Schema cannot say is asserted as
 * the only exceptions, and the zod schemas (refinements) refuse exactly those: a bare
 * multi-label public suffix for WHOIS, the expanded size and direction of port ranges, and
 * `sender`/`helo` without `ip`.
 */

import { tempDir } from '@netdiag/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { searchAsn } from '../asn/search-asn.js';
import { normaliseEmail } from '../breach/email.js';
import { parseSelectors } from '../email-auth/dkim/analyse.js';
import { isNetdiagError } from '../errors.js';
import { loadIpDatasets } from '../ip/datasets.js';
import { normaliseDomain } from '../net/domain.js';
import { hostOfUrl, normaliseHost, parseProbeUrl } from '../net/guard.js';
import { parseIp } from '../net/ip.js';
import { parsePortList } from '../ports/port-list.js';
import { whoisDomain } from '../whois/lookup.js';
import { ENDPOINT_SCHEMAS } from './index.js';
import { type JsonSchema, toJsonSchema } from './json-schema.js';
import { formOf } from './param.js';

const RUNS = 300;

/** The JSON Schema of one parameter, as the OpenAPI document publishes it. */
function param(op: keyof typeof ENDPOINT_SCHEMAS, name: string): JsonSchema {
  const schemas = ENDPOINT_SCHEMAS[op] as { params?: z.ZodObject; body?: z.ZodObject };
  const object = toJsonSchema((schemas.params ?? schemas.body)!, { io: 'input' });
  return (object['properties'] as Record<string, JsonSchema>)[name]!;
}

/** Strings matching every `pattern` of a schema (or of one `anyOf` branch), within its lengths. */
function matching(schema: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    ...branchesOf(schema).map((branch) => {
      const pattern = new RegExp(branch['pattern'] as string);
      const min = (branch['minLength'] as number | undefined) ?? 0;
      const max = (branch['maxLength'] as number | undefined) ?? Number.POSITIVE_INFINITY;
      return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= max);
    }),
  );
}

/** The alternatives of a schema, nested `anyOf`s flattened. */
function branchesOf(schema: JsonSchema): JsonSchema[] {
  const anyOf = schema['anyOf'] as JsonSchema[] | undefined;
  return anyOf ? anyOf.flatMap(branchesOf) : [schema];
}

function property(arbitrary: fc.Arbitrary<string>, check: (value: string) => void | Promise<void>) {
  return fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      await check(value);
    }),
    { numRuns: RUNS },
  );
}

describe('what the parameter schemas admit, the server accepts', () => {
  test('IP parameters → parseIp', async () => {
    for (const [op, name] of [
      ['lookupIp', 'ip'],
      ['lookupIpV1', 'address'],
      ['reverseDns', 'ip'],
      ['blacklist', 'ip'],
      ['checkEmailAuth', 'ip'],
    ] as const) {
      await property(matching(param(op, name)), (ip) => {
        expect(parseIp(ip), ip).toBeDefined();
      });
    }
  });

  test('DNS and email-auth domains → normaliseDomain', async () => {
    for (const op of ['dnsLookup', 'dnsLookupV1', 'checkEmailAuth'] as const) {
      await property(matching(param(op, 'domain')), (domain) => {
        normaliseDomain(domain);
      });
    }
  });

  test('the DNS type enums are the families of SPEC §4', () => {
    expect(param('dnsLookup', 'type')['enum']).toEqual([
      'A',
      'AAAA',
      'MX',
      'NS',
      'TXT',
      'CNAME',
      'CAA',
      'SOA',
    ]);
    expect(param('dnsLookupV1', 'type')['enum']).toEqual([
      'A',
      'AAAA',
      'CNAME',
      'MX',
      'NS',
      'TXT',
      'SOA',
      'SRV',
      'CAA',
      'PTR',
      // Issue 19: the modern types, on the versioned endpoint only (SPEC fixes /api/dns's list).
      'HTTPS',
      'SVCB',
      'DS',
      'DNSKEY',
      'RRSIG',
      'NSEC',
      'NSEC3',
      'NSEC3PARAM',
      'TLSA',
      'SSHFP',
      'NAPTR',
      'CDS',
      'CDNSKEY',
    ]);
  });

  test('WHOIS domains → whoisDomain (a bare public suffix such as co.uk is the one gap)', async () => {
    for (const op of ['whois', 'whoisV1'] as const) {
      const zod = formOf(ENDPOINT_SCHEMAS[op].params, 'domain');
      await property(matching(param(op, 'domain')), (domain) => {
        try {
          whoisDomain(domain);
          expect(zod.safeParse(domain).success, domain).toBe(true);
        } catch (error) {
          expect((error as Error).message).toContain('is a public suffix');
          expect(zod.safeParse(domain).success, domain).toBe(false);
        }
      });
    }
    expect(formOf(ENDPOINT_SCHEMAS.whois.params, 'domain').safeParse('co.uk').success).toBe(false);
  });

  test('emails → normaliseEmail', async () => {
    const schema = param('checkBreach', 'email');
    const pattern = new RegExp(schema['pattern'] as string);
    const atom = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,20}$/);
    const local = fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join('.'));
    const host = matching(param('dnsLookup', 'domain')).map((d) => d.replace(/\.$/, ''));
    const emails = fc
      .tuple(local, host)
      .map(([l, h]) => `${l}@${h}`)
      .filter((e) => pattern.test(e) && e.length <= (schema['maxLength'] as number));
    await property(emails, (email) => {
      normaliseEmail(email);
    });
  });

  test('probe URLs → parseProbeUrl, with a host', async () => {
    for (const op of ['checkSite', 'gradeSecurityHeaders'] as const) {
      await property(matching(param(op, 'url')), (url) => {
        let parsed: URL;
        try {
          parsed = parseProbeUrl(url);
        } catch (error) {
          // The one gap: a pattern cannot tell valid Punycode (RFC 3492) from invalid (`xn--0`);
          // the URL parser's IDNA step can, and the answer is a 400 saying the URL is not valid.
          const idna = /xn--/i.test(url) && isNetdiagError(error);
          expect(idna && /is not a valid URL/.test(error.message), `${url}: ${error}`).toBe(true);
          return;
        }
        expect(hostOfUrl(parsed).host, url).not.toBe('');
      });
    }
  });

  test('scan hosts → normaliseHost', async () => {
    await property(matching(param('scanPorts', 'host')), (host) => {
      normaliseHost(host);
    });
  });

  test('port lists → parsePortList (expanded size and range direction are the gap)', async () => {
    const zod = formOf(ENDPOINT_SCHEMAS.scanPorts.params, 'ports');
    await property(matching(param('scanPorts', 'ports')), (ports) => {
      try {
        parsePortList(ports);
        expect(zod.safeParse(ports).success, ports).toBe(true);
      } catch (error) {
        expect((error as Error).message).toMatch(/at most 100 per request|runs backwards/);
        expect(zod.safeParse(ports).success, ports).toBe(false);
      }
    });
    for (const [ports, ok] of [
      ['22,80,443,8000-8010', true],
      ['1-101', false],
      ['90-80', false],
    ] as const) {
      expect(zod.safeParse(ports).success, ports).toBe(ok);
    }
  });

  test('sender and helo only with ip (zod; OpenAPI parameters cannot say it)', () => {
    const params = ENDPOINT_SCHEMAS.checkEmailAuth.params;
    expect(params.safeParse({ domain: 'example.com', sender: 'a@example.com' }).success).toBe(
      false,
    );
    expect(params.safeParse({ domain: 'example.com', helo: 'mail.example.com' }).success).toBe(
      false,
    );
    expect(
      params.safeParse({ domain: 'example.com', ip: '192.0.2.1', sender: '<>', helo: 'h.example' })
        .success,
    ).toBe(true);
  });

  test('DKIM selectors → parseSelectors', async () => {
    await property(matching(param('checkEmailAuth', 'dkim_selector')), (list) => {
      parseSelectors(list);
    });
  });

  test('ASN queries → searchAsn answers or does not find, never a 400', async () => {
    const datasets = await loadIpDatasets({
      cacheDir: tempDir('netdiag-schema-'),
    });
    const schema = param('searchAsn', 'q');
    // The name branch has look-aheads, which fast-check cannot generate from: generate the
    // lookahead-free body and keep what the whole pattern admits.
    const branches = branchesOf(schema); // IPv4, IPv6, AS number, name
    const name = new RegExp(branches[3]!['pattern'] as string);
    const names = fc.stringMatching(/^[^\s:][^:]{0,40}[^\s:]$/).filter((s) => name.test(s));
    const qs = fc.oneof(
      matching(branches[0]!),
      matching(branches[1]!),
      matching(branches[2]!),
      names,
    );
    await property(qs, async (q) => {
      try {
        await searchAsn(q, { datasets });
      } catch (error) {
        expect(isNetdiagError(error, 'NOT_FOUND'), `${q}: ${(error as Error).message}`).toBe(true);
      }
    });
  });

  test('bulk bodies → every entry is an address', () => {
    const ips = formOf(ENDPOINT_SCHEMAS.bulkLookup.body, 'ips');
    expect(ips.safeParse(['8.8.8.8', '2606:4700::1111']).success).toBe(true);
    expect(ips.safeParse([]).success).toBe(false);
    expect(ips.safeParse(Array(51).fill('8.8.8.8')).success).toBe(false);
    expect(ips.safeParse(['not-an-ip']).success).toBe(false);
  });
});
