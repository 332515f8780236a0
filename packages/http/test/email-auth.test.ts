/** `GET /api/email-auth` against a loopback DNS server. */
import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { ROUTES } from '../src/routes/index.js';
import { expectMatchesSchema } from './expect-schema.js';

let dns: DnsTestServer;

beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      'example.com': {
        MX: [{ preference: 10, exchange: 'mx.example.com' }],
        TXT: ['v=spf1 ip4:93.184.216.0/24 include:_spf.example.com -all exp=why.example.com'],
      },
      'mx.example.com': { A: ['93.184.216.34'] },
      '_spf.example.com': { TXT: ['v=spf1 ip6:2606:2800:220::/48 -all'] },
      'why.example.com': { TXT: ['%{i} is not a sender of %{d}'] },
      '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.com'] },
      'k9._domainkey.example.com': {
        TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='],
      },
      'servfail.example': { TXT: ['v=spf1 -all'] },
      'slow.example': { TXT: ['v=spf1 -all'] },
    },
    onQuery: (q) => {
      if (q.name === 'servfail.example') return 'servfail';
      if (q.name === 'slow.example' && q.type === 'MX') return 'drop';
      return undefined;
    },
  });
});
afterAll(() => dns.close());

const app = () => createApp({ logLevel: 'silent', dnsServers: [dns.address] });

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  additionalProperties?: Schema | boolean;
};

/**
 * Checks that `value` is described by `schema`: every object key is a listed property, every
 * required property is present, types and enums match. Returns the first mismatch, by path.
 */
function undescribed(value: unknown, schema: Schema, path = 'data'): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value;
  const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
  if (types.length > 0 && !ok) return `${path}: ${actual} is not ${types.join('|')}`;
  if (schema.enum && !schema.enum.includes(value)) return `${path}: ${String(value)} not in enum`;
  if (actual === 'array') {
    for (const [i, item] of (value as unknown[]).entries()) {
      const bad = schema.items && undescribed(item, schema.items, `${path}[${i}]`);
      if (bad) return bad;
    }
  }
  if (actual === 'object' && schema.properties) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) return `${path}.${key} missing`;
    for (const [key, item] of Object.entries(record)) {
      const sub = schema.properties[key];
      if (!sub) {
        if (schema.additionalProperties) continue;
        return `${path}.${key} is not described`;
      }
      const bad = undescribed(item, sub, `${path}.${key}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

const route = ROUTES.find((r) => r.operationId === 'checkEmailAuth')!;

describe('GET /api/email-auth', () => {
  test('200: every section, described field by field by the route schema', async () => {
    const res = await request(app()).get('/api/email-auth').query({ domain: 'example.com' });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkEmailAuth', res.body);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const data = res.body.data;
    expect(data.domain).toBe('example.com');
    expect(data.spf).toMatchObject({
      status: 'pass',
      dns_lookups: 1,
      all: '-all',
      evaluation: null,
    });
    expect(data.dmarc).toMatchObject({ status: 'pass', applied_policy: 'reject' });
    expect(data.mx.records[0]).toMatchObject({
      exchange: 'mx.example.com',
      addresses: ['93.184.216.34'],
    });
    expect(data.summary.grade).toMatch(/^[A-F]$/);
    expect(undescribed(data, route.data as Schema)).toBeUndefined();
  });

  test('the documented example is described by the schema too', () => {
    expect(undescribed(route.example, route.data as Schema)).toBeUndefined();
  });

  test('ip, sender, helo and dkim_selector: evaluation with explanation, requested selector', async () => {
    const res = await request(app()).get('/api/email-auth').query({
      domain: 'example.com',
      ip: '2606:2800:221::1',
      sender: 'bob@example.com',
      helo: 'mail.example.org',
      dkim_selector: 'k9',
    });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkEmailAuth', res.body);
    expect(res.body.data.spf.evaluation).toMatchObject({
      result: 'fail',
      explanation:
        '2.6.0.6.2.8.0.0.0.2.2.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1 is not a sender of example.com',
      sender: 'bob@example.com',
      helo: 'mail.example.org',
      matched_term: '-all',
    });
    expect(res.body.data.dkim.selectors[0]).toMatchObject({
      selector: 'k9',
      source: 'requested',
      key_type: 'ed25519',
      key_bits: 256,
    });
    expect(undescribed(res.body.data, route.data as Schema)).toBeUndefined();
  });

  test('sender "<>" is the null sender: postmaster@<helo>', async () => {
    const res = await request(app())
      .get('/api/email-auth')
      .query({ domain: 'example.com', ip: '93.184.216.9', sender: '<>' });
    expectMatchesSchema('checkEmailAuth', res.body);
    expect(res.body.data.spf.evaluation).toMatchObject({
      result: 'pass',
      sender: 'postmaster@example.com',
    });
  });

  test.each([
    [{}, 'Missing required parameter "domain"'],
    [{ domain: 'not a domain' }, '"domain"'],
    [{ domain: '192.0.2.1' }, 'not an IP address'],
    [{ domain: 'example.com', ip: 'nope' }, 'Invalid IP address format'],
    [{ domain: 'example.com', sender: 'a@example.com' }, '"ip"'],
    [{ domain: 'example.com', ip: '192.0.2.1', sender: 'no-at-sign' }, '"sender"'],
    [{ domain: 'example.com', dkim_selector: 'a b' }, 'dkim_selector'],
    [{ domain: ['example.com', 'example.org'] }, 'must be given once'],
  ])('400 for %j', async (query, message) => {
    const res = await request(app()).get('/api/email-auth').query(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringContaining(message) });
  });

  test("502 when the domain's DNS answers SERVFAIL", async () => {
    const res = await request(app()).get('/api/email-auth').query({ domain: 'servfail.example' });
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('SERVFAIL');
  });

  test("504 when the domain's DNS does not answer", async () => {
    const res = await request(app()).get('/api/email-auth').query({ domain: 'slow.example' });
    expect(res.status).toBe(504);
    expect(res.body.error).toContain('dns');
  });

  test('the OpenAPI document has the path, its parameters and a valid schema', async () => {
    const res = await request(app()).get('/api/openapi.json');
    const operation = res.body.paths['/api/email-auth'].get;
    expect(operation.operationId).toBe('checkEmailAuth');
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual([
      'domain',
      'ip',
      'sender',
      'helo',
      'dkim_selector',
    ]);
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
  });
});
