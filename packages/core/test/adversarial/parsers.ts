/**
 * Every parser of remote text, by the name the worst cases use: the function that runs on what a
 * server sent. Imported from the sources by the tests and bundled (built like the packages) by
 * the benchmark.
 */

import { parseDmarcRecord } from '../../src/email-auth/dmarc/parse.js';
import { parseSpfRecord } from '../../src/email-auth/spf/record.js';
import { isNetdiagError } from '../../src/errors.js';
import { parseCsp } from '../../src/headers/checks/csp-parser.js';
import { parseSetCookie } from '../../src/headers/checks/set-cookie.js';
import { parseDictionaryKeys } from '../../src/headers/checks/structured-field.js';
import { scanHtml } from '../../src/headers/html.js';
import { buildQuery, matchResponse } from '../../src/net/resolver-wire.js';
import type { RdapObject } from '../../src/whois/rdap-client.js';
import { normaliseRdapDomain } from '../../src/whois/rdap-normalise.js';
import { parseWhoisText } from '../../src/whois/whois-parser.js';

let calls = 0;
const dnsQuery = buildQuery('example.test', 'A', { edns: false, id: 0x1234 });

export const PARSERS: Record<string, (input: never) => unknown> = {
  // scanHtml keeps the last page's facts (the grade reads a page twice); a fresh string per call
  // measures the parse, not the cache.
  'HTML (scanHtml)': (html: string) => scanHtml(`${html}<!--${(calls++).toString(36)}-->`),
  // An invalid policy is reported by throwing InvalidInputError, which the CSP check turns into
  // a finding (`csp-header-invalid`): that is a parse result, not a failure.
  'CSP (parseCsp)': (policies: string[]) => {
    try {
      return parseCsp(policies);
    } catch (error) {
      if (isNetdiagError(error, 'INVALID_INPUT')) return error;
      throw error;
    }
  },
  'Set-Cookie (parseSetCookie)': (header: string) => parseSetCookie(header),
  'Structured field (parseDictionaryKeys)': (value: string) => parseDictionaryKeys(value),
  'WHOIS (parseWhoisText)': (text: string) => parseWhoisText(text),
  'RDAP JSON (JSON.parse + normaliseRdapDomain)': (json: string) =>
    normaliseRdapDomain(JSON.parse(json) as RdapObject, 'example.com', 'https://rdap.example/'),
  'DNS wire (dns-packet via matchResponse)': (message: Uint8Array) =>
    // The worst case carries its own id; give the query the same one.
    matchResponse(message, dnsQuery),
  'SPF (parseSpfRecord)': (record: string) => parseSpfRecord(record),
  'DMARC (parseDmarcRecord)': (record: string) => parseDmarcRecord(record),
};

/**
 * The parsers held to absolute bounds at their input caps (parsers-bounds.test.ts, issue 42)
 * rather than to the ratios of parsers-linear.test.ts.
 */
export const BOUNDED: ReadonlySet<string> = new Set([
  'WHOIS (parseWhoisText)',
  'RDAP JSON (JSON.parse + normaliseRdapDomain)',
  'SPF (parseSpfRecord)',
  'DMARC (parseDmarcRecord)',
]);

/**
 * Parsers whose input another parser reads first, in the same turn of the event loop: the RDAP
 * body is V8's `JSON.parse`d, then ours (`read`) reads the document. parsers-bounds.test.ts
 * bounds ours alone, and the two together by the event-loop bound.
 */
export const TWO_STEPS: Record<
  string,
  { first: (input: never) => unknown; read: (parsed: never) => unknown }
> = {
  'RDAP JSON (JSON.parse + normaliseRdapDomain)': {
    first: (json: string) => JSON.parse(json),
    read: (doc: RdapObject) => normaliseRdapDomain(doc, 'example.com', 'https://rdap.example/'),
  },
};
