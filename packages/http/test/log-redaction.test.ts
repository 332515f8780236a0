/**
 * Issue 20 item 2: no spelling of an email address reaches a log line. Every request below
 * carries the same address in another spelling; every line the app writes at the most verbose
 * level is searched for it afterwards.
 */
import pino from 'pino';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { redactUrl } from '../src/redact.js';

// Upstreams at a closed loopback port: every check fails fast, which is fine here — what is
// logged matters, not the answer.
const CLOSED = '127.0.0.1:1';

const SPELLINGS = [
  '/api/breach?email=zz.secret%40example.com',
  '/api/breach?email=zz.secret@example.com',
  '/api/breach?%65mail=zz.secret%40example.com',
  '/api/breach?EMAIL=zz.secret%40example.com',
  '/api/breach?email[]=zz.secret%40example.com',
  '/api/breach?email%5B%5D=zz.secret%40example.com',
  '/api/breach?email=zz.secret%2540example.com',
  '/api/breach?email=%7a%7a.secret%40example.com',
  '/api/breach?email=zz.secret%40example.com&email=zz.secret%40example.org',
  '/api/breach?x=1&email=zz.secret+tag%40example.com',
  '/api/breach/zz.secret@example.com',
  '/api/breach/zz.secret%40example.com',
  '/api/email-auth?domain=example.com&sender=zz.secret%40example.com',
  '/api/email-auth?domain=example.com&sender=zz.secret@example.com',
  '/api/nothing-here/zz.secret@example.com?zz.secret@example.com',
  '/api/breach?email=zz.secret%40example.com%',
];

describe('access log redaction', () => {
  test('no log line carries the address, in any spelling', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const app = createApp({
      logger,
      env: false,
      dnsServers: [CLOSED],
      breachApiUrl: `http://${CLOSED}`,
      whoisServer: CLOSED,
      rdapBootstrapUrl: `http://${CLOSED}/dns.json`,
    });
    try {
      for (const url of SPELLINGS) await request(app).get(url);
    } finally {
      await closeContext(app.locals.netdiag);
    }
    const requestLines = lines.filter((line) => line.includes('"msg":"request"'));
    // Every request was logged (a test that logs nothing would pass the search below).
    expect(requestLines).toHaveLength(SPELLINGS.length);
    for (const line of lines) {
      expect(line.toLowerCase()).not.toMatch(/secret|%7a%7a/);
    }
    expect(requestLines.every((line) => line.includes('[redacted]'))).toBe(true);
  });
});

describe('redactUrl', () => {
  test.each([
    ['/api/lookup?ip=1.1.1.1', '/api/lookup?ip=1.1.1.1'],
    ['/api/dns?domain=example.com&type=A', '/api/dns?domain=example.com&type=A'],
    ['/api/breach?%65mail=a%40b.c', '/api/breach?%65mail=[redacted]'],
    ['/api/breach/a@b.c', '/api/breach/[redacted]'],
    ['/api/breach?a@b.c', '/api/breach?[redacted]'],
    ['/x?q=%E0%A4%A', '/x?q=%E0%A4%A'],
  ])('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
