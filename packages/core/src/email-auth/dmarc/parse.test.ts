/**
 * DMARC parsing against the trailofbits/dmarc cases and 145 real records from
 * `../shared/corpora/dmarc` (read in place, never copied), plus the RFC 7489 defaults.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { effectivePolicy, isDmarcRecord, parseDmarcRecord, parseDmarcUri } from './parse.js';

const corpora =
  process.env['NETDIAG_CORPORA'] ??
  join(fileURLToPath(new URL('.', import.meta.url)), '../../../../../../shared/corpora');
const dir = join(corpora, 'dmarc');
const present = prerequisite(
  'DMARC corpus',
  existsSync(join(dir, 'dmarc-parse-cases.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);
if (!present) console.warn(`[email-auth] DMARC corpus not found at ${dir}: conformance skipped`);

interface RecordCase {
  test: string;
  record: string;
  expect: 'valid' | 'error';
  expected_tags_exact?: Record<string, unknown>;
}
interface TagCase {
  tag: string;
  text: string;
  also_with_spaces: string;
  expect_value: unknown;
}
interface UriCase {
  uri: string;
  expect: Record<string, string>;
}
interface Cases {
  records: RecordCase[];
  tag_cases: TagCase[];
  report_uri_cases: UriCase[];
  rfc7489_defaults: Record<string, unknown>;
}

const cases: Cases = present
  ? JSON.parse(readFileSync(join(dir, 'dmarc-parse-cases.json'), 'utf8'))
  : { records: [], tag_cases: [], report_uri_cases: [], rfc7489_defaults: {} };

/** The real records: column 3 of the CSV (quoted when it holds commas), non-empty only. */
function realRecords(): { domain: string; record: string }[] {
  if (!present) return [];
  const text = readFileSync(join(dir, 'trailofbits-alexa-dmarc-records.csv'), 'utf8');
  const out: { domain: string; record: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^\d+,([^,]*),(.*)$/.exec(line.replace(/\r$/, ''));
    if (!match) continue;
    let record = match[2] as string;
    if (record.startsWith('"') && record.endsWith('"')) {
      record = record.slice(1, -1).replace(/""/g, '"');
    }
    if (record.trim() !== '') out.push({ domain: match[1] as string, record });
  }
  return out;
}

describe.skipIf(!present)('DMARC corpus: trailofbits/dmarc record cases', () => {
  test.each(cases.records.map((c) => [c.test, c] as const))('%s', (_name, c) => {
    const parsed = parseDmarcRecord(c.record);
    expect(parsed.valid).toBe(c.expect === 'valid');
    if (c.expected_tags_exact) expect(parsed.tags).toEqual(c.expected_tags_exact);
  });

  test('there are 12 record cases, 22 tag cases and 4 report-URI cases', () => {
    expect([cases.records.length, cases.tag_cases.length, cases.report_uri_cases.length]).toEqual([
      12, 22, 4,
    ]);
  });
});

describe.skipIf(!present)('DMARC corpus: tag grammar cases', () => {
  test.each(cases.tag_cases.map((c) => [c.text, c] as const))('%s', (_name, c) => {
    for (const text of [c.text, c.also_with_spaces]) {
      const parsed = parseDmarcRecord(`v=DMARC1; ${text}`);
      expect(parsed.errors).toEqual([]);
      expect((parsed.tags as Record<string, unknown>)[c.tag]).toEqual(c.expect_value);
    }
  });
});

describe.skipIf(!present)('DMARC corpus: report URIs', () => {
  test.each(cases.report_uri_cases.map((c) => [c.uri, c] as const))('%s', (_name, c) => {
    expect(parseDmarcUri(c.uri)).toEqual(c.expect);
  });
});

describe.skipIf(!present)('DMARC corpus: 145 real records all parse', () => {
  const records = realRecords();

  test('the corpus holds 145 non-empty records', () => {
    expect(records).toHaveLength(145);
  });

  test.each(records.map((r) => [r.domain, r.record] as const))('%s', (_domain, record) => {
    const parsed = parseDmarcRecord(record);
    if (/^v=DMARC1\s*(;|$)/.test(record)) {
      // A real DMARC record: valid, a policy, no grammar errors, every destination parsed.
      expect(parsed.valid).toBe(true);
      expect(parsed.errors).toEqual([]);
      expect(parsed.tags.p).toMatch(/^(none|quarantine|reject)$/);
      for (const uri of [...(parsed.tags.rua ?? []), ...(parsed.tags.ruf ?? [])]) {
        expect(parseDmarcUri(uri)).toHaveProperty('uri');
      }
    } else {
      // Something else published at _dmarc (SPF, DKIM, site verification, "=DMARC1"): rejected
      // with a message, never an exception.
      expect(parsed.valid).toBe(false);
      expect(parsed.errors[0]?.message).toContain('v=DMARC1');
    }
  });
});

/** `record` with every tag name upper-cased and nothing else touched (values keep their case). */
function upperCaseTagNames(record: string): string {
  return record
    .split(';')
    .map((segment) => {
      const eq = segment.indexOf('=');
      return eq === -1 ? segment : segment.slice(0, eq).toUpperCase() + segment.slice(eq);
    })
    .join(';');
}

describe.skipIf(!present)('DMARC corpus: tag names are case-insensitive (RFC 7489 §6.4)', () => {
  const dmarc = realRecords().filter((r) => /^v=DMARC1\s*(;|$)/.test(r.record));

  test('the corpus has real DMARC records to upper-case', () => {
    expect(dmarc.length).toBeGreaterThan(100);
  });

  test.each(dmarc.map((r) => [r.domain, r.record] as const))(
    '%s with upper-case tag names parses the same',
    (_domain, record) => {
      const upper = upperCaseTagNames(record);
      expect(upper).toMatch(/^V=DMARC1/);
      expect(isDmarcRecord(upper)).toBe(true);
      const a = parseDmarcRecord(record);
      const b = parseDmarcRecord(upper);
      expect(b.valid).toBe(true);
      // Same tags, values included: rua/ruf URIs keep their case exactly.
      expect(b.tags).toEqual(a.tags);
      expect(b.errors).toEqual(a.errors);
      expect(b.unknown_tags.map((t) => t.toLowerCase())).toEqual(a.unknown_tags);
    },
  );

  test.each(cases.records.map((c) => [c.test, c] as const))(
    'trailofbits case "%s" with upper-case tag names',
    (_name, c) => {
      const parsed = parseDmarcRecord(upperCaseTagNames(c.record));
      expect(parsed.valid).toBe(c.expect === 'valid');
      if (c.expected_tags_exact) expect(parsed.tags).toEqual(c.expected_tags_exact);
    },
  );
});

describe('DMARC tag names are case-insensitive, the v value and URIs are not', () => {
  test.each([
    ['V=DMARC1; P=reject', { v: 'DMARC1', p: 'reject' }],
    [
      'V=DMARC1;P=REJECT;SP=None;ADKIM=s;Aspf=S;PCT=50',
      {
        v: 'DMARC1',
        p: 'reject',
        sp: 'none',
        adkim: 's',
        aspf: 's',
        pct: 50,
      },
    ],
    ['V = DMARC1 ; np = Quarantine ; T = y', { v: 'DMARC1', np: 'quarantine', t: 'y' }],
  ])('%s is a DMARC record', (record, tags) => {
    expect(isDmarcRecord(record)).toBe(true);
    const parsed = parseDmarcRecord(record);
    expect(parsed.valid).toBe(true);
    expect(parsed.errors).toEqual([]);
    expect(parsed.tags).toEqual(tags);
  });

  test('report URIs keep their case exactly', () => {
    const parsed = parseDmarcRecord(
      'V=DMARC1; P=none; RUA=mailto:DMARC-Reports@Example.COM!10M; RUF=mailto:Forensic@Example.com',
    );
    expect(parsed.tags.rua).toEqual(['mailto:DMARC-Reports@Example.COM!10M']);
    expect(parsed.tags.ruf).toEqual(['mailto:Forensic@Example.com']);
    expect(parseDmarcUri('mailto:DMARC-Reports@Example.COM!10M')).toEqual({
      uri: 'mailto:DMARC-Reports@Example.COM',
      size: '10',
      unit: 'm',
    });
  });

  test('an upper-case duplicate of a tag is still a duplicate', () => {
    const parsed = parseDmarcRecord('V=DMARC1; p=none; P=reject');
    expect(parsed.tags.p).toBe('none');
    expect(parsed.errors.map((e) => e.tag)).toEqual(['p']);
  });

  test.each(['v=dmarc1; p=none', 'V=dmarc1; p=none', 'V=Dmarc1; P=reject', 'p=reject; V=DMARC1'])(
    '%j is not a DMARC record (the value DMARC1 is case-sensitive, v comes first)',
    (record) => {
      expect(isDmarcRecord(record)).toBe(false);
      const parsed = parseDmarcRecord(record);
      expect(parsed.valid).toBe(false);
      expect(parsed.errors[0]?.message).toContain('v=DMARC1');
    },
  );

  test('the error of a wrong-case value reports the value as published', () => {
    expect(parseDmarcRecord('V=dmarc1').errors[0]).toMatchObject({ tag: 'v', value: 'dmarc1' });
  });
});

describe('DMARC parsing beyond the corpus', () => {
  test.each([
    ['v=DMARC1; p=reject; np=quarantine; psd=n; t=y', { np: 'quarantine', psd: 'n', t: 'y' }],
    ['v=DMARC1; p=REJECT; adkim=S', { p: 'reject', adkim: 's' }],
    ['v=DMARC1;p=none;rua=mailto:a@example.com!10m', { rua: ['mailto:a@example.com!10m'] }],
  ])('%s', (record, tags) => {
    const parsed = parseDmarcRecord(record);
    expect(parsed.errors).toEqual([]);
    expect(parsed.tags).toMatchObject(tags);
  });

  test.each([
    ['v=DMARC1; p=block', 'p'],
    ['v=DMARC1; p=none; pct=101', 'pct'],
    ['v=DMARC1; p=none; pct=50%', 'pct'],
    ['v=DMARC1; p=none; fo=2', 'fo'],
    ['v=DMARC1; p=none; rf=json', 'rf'],
    ['v=DMARC1; p=none; ri=soon', 'ri'],
    ['v=DMARC1; p=none; rua=reports@example.com', 'rua'],
    ['v=DMARC1; p=none; t=maybe', 't'],
    ['v=DMARC1; p=none; p=reject', 'p'],
  ])('%s reports an error on %s', (record, tag) => {
    const parsed = parseDmarcRecord(record);
    expect(parsed.valid).toBe(true);
    expect(parsed.errors.map((e) => e.tag)).toContain(tag);
  });

  test.each(['', 'v=DMARC2; p=none', 'p=none; v=DMARC1', 'v=dmarc1; p=none', 'v=spf1 -all'])(
    '%j is not a DMARC record',
    (record) => {
      expect(parseDmarcRecord(record).valid).toBe(false);
    },
  );

  test('unknown tags are kept aside and ignored', () => {
    const parsed = parseDmarcRecord('v=DMARC1; p=none; foo=bar');
    expect(parsed.unknown_tags).toEqual(['foo']);
    expect(parsed.tags).toEqual({ v: 'DMARC1', p: 'none' });
  });

  test.skipIf(!present)('effective policy: the RFC 7489 §6.3 defaults of the corpus', () => {
    const d = cases.rfc7489_defaults;
    const policy = effectivePolicy(parseDmarcRecord('v=DMARC1').tags);
    expect(policy).toMatchObject({
      adkim: d['adkim'],
      aspf: d['aspf'],
      fo: d['fo'],
      pct: d['pct'],
      rf: d['rf'],
      ri: d['ri'],
    });
    // "sp: same as p when sp is absent"
    expect(effectivePolicy(parseDmarcRecord('v=DMARC1; p=none').tags).sp).toBe('none');
    expect(effectivePolicy(parseDmarcRecord('v=DMARC1; p=reject').tags).sp).toBe('reject');
  });
});

describe('a record with thousands of problems', () => {
  test('the first 50 are listed, the rest counted in one message; every valid tag applies', () => {
    const record = `v=DMARC1; p=reject; ${'x=y; '.repeat(200)}pct=50`;
    const parsed = parseDmarcRecord(record);
    expect(parsed.valid).toBe(true);
    expect(parsed.tags.p).toBe('reject');
    expect(parsed.tags.pct).toBe(50);
    // x=y: 1 unknown tag, then 49 duplicates listed; the other 150 duplicates only counted.
    expect(parsed.unknown_tags).toEqual(['x']);
    expect(parsed.errors).toHaveLength(50);
    expect(parsed.errors.at(-1)?.message).toBe(
      '150 more problems are not listed: the record has more than 50',
    );
  });

  test('segments that are not tags: the first 50 listed, the rest counted; tags still apply', () => {
    const bad = Array.from({ length: 70 }, (_, i) => `junk${i}`);
    const parsed = parseDmarcRecord(
      `v=DMARC1; p=quarantine; ${bad.join('; ')}; rua=mailto:a@b.example`,
    );
    expect(parsed.valid).toBe(true);
    expect(parsed.tags.p).toBe('quarantine');
    expect(parsed.tags.rua).toEqual(['mailto:a@b.example']);
    expect(parsed.errors.slice(0, 50).map((e) => e.tag)).toEqual(bad.slice(0, 50));
    expect(parsed.errors).toHaveLength(51);
    expect(parsed.errors.at(-1)?.message).toBe(
      '20 more problems are not listed: the record has more than 50',
    );
  });
});

describe('a record of more than 1,024 segments', () => {
  test('the first 1,024 are read, and the answer says the rest was not', () => {
    const read = parseDmarcRecord(`v=DMARC1; ${'fo=1; '.repeat(1022)}p=reject;;`);
    expect(read.tags.p).toBe('reject');
    expect(read.errors.at(-1)?.message).not.toContain('not read');
    const unread = parseDmarcRecord(`v=DMARC1; ${'fo=1; '.repeat(1023)}p=reject`);
    expect(unread.valid).toBe(true);
    expect(unread.tags.p).toBeUndefined();
    expect(unread.tags.fo).toEqual(['1']);
    expect(unread.errors.at(-1)?.message).toBe(
      'the rest of the record was not read: it has more than 1024 tags and segments, where RFC 7489 defines a dozen tags',
    );
  });
});

describe('report URIs', () => {
  test('a record of thousands of invalid URIs names ten and counts the rest', () => {
    const parsed = parseDmarcRecord(
      `v=DMARC1; p=none; rua=${Array.from({ length: 5000 }, (_, i) => `bad${i}`).join(',')},mailto:r@example.com`,
    );
    expect(parsed.tags.rua).toEqual(['mailto:r@example.com']);
    const message = parsed.errors.map((e) => e.message).join('\n');
    expect(message).toContain('"bad0", "bad1"');
    expect(message).toContain('"bad9" and 4990 more');
    expect(message).not.toContain('"bad10"');
  });
});

// Issue 41 item 9: whitespace before "v=DMARC1" makes a record that receivers discard
// (RFC 7489 §6.6.3); the error says so rather than quoting a start that looks right.
describe('a record that starts with whitespace', () => {
  test.each([' v=DMARC1; p=reject', '  v=DMARC1', '\tV=DMARC1; p=none', '\u00a0v=DMARC1;p=reject'])(
    '%j is not a DMARC record, and the error names the leading whitespace',
    (record) => {
      expect(isDmarcRecord(record)).toBe(false);
      const parsed = parseDmarcRecord(record);
      expect(parsed.valid).toBe(false);
      expect(parsed.tags).toEqual({});
      expect(parsed.errors).toHaveLength(1);
      expect(parsed.errors[0]?.message).toMatch(/starts with whitespace before "v=DMARC1"/);
    },
  );

  test('whitespace before anything else is the usual "not a DMARC record" error', () => {
    const parsed = parseDmarcRecord(' v=spf1 -all');
    expect(parsed.valid).toBe(false);
    expect(parsed.errors[0]?.message).not.toMatch(/whitespace/);
    expect(parsed.errors[0]?.message).toContain('v=DMARC1');
  });

  test('whitespace after the version tag and around "=" is still allowed (§6.4 *WSP)', () => {
    expect(parseDmarcRecord('v = DMARC1 ; p=reject').tags.p).toBe('reject');
  });
});
