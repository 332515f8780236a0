/**
 * Issue 41 item 10: the kinds of miss found on registries outside the corpora, each tested on
 * real answers from other WHOIS parsers' test data (test/fixtures/whois-extra, SOURCE.md), with
 * the expected fields written by hand from each answer.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { decodeWhois } from './whois-client.js';
import { type ParsedWhois, parseWhoisText } from './whois-parser.js';

const root = fileURLToPath(new URL('../../test/fixtures/whois-extra/', import.meta.url));

type Kind =
  | 'dot-leaders'
  | 'dates'
  | 'query-status'
  | 'not-found-pattern'
  | 'contact-state'
  | 'placeholder-ns';

interface ExtraCase {
  file: string;
  kind: Kind;
  outcome: ParsedWhois['outcome'];
  domain?: string;
  registrar?: string;
  creation_date?: string;
  expiration_date?: string;
  last_updated?: string;
  name_servers?: string[];
  status?: string[];
  not_status?: string[];
  refusal?: string;
  note?: string;
}

const cases = (
  JSON.parse(readFileSync(join(root, 'expected.json'), 'utf8')) as { cases: ExtraCase[] }
).cases;

function answerFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...answerFiles(path));
    else if (!['LICENSE.txt', 'SOURCE.md', 'expected.json'].includes(name)) {
      out.push(relative(root, path).split('\\').join('/'));
    }
  }
  return out.sort();
}

const parse = (c: ExtraCase) => parseWhoisText(decodeWhois(readFileSync(join(root, c.file))));
const day = (iso: string) => iso.slice(0, 10);
const set = (values: readonly string[]) => [...new Set(values.map((v) => v.toLowerCase()))].sort();

/** Every field the entry states, as the parser gave it, beside what the entry expects. */
function compare(c: ExtraCase, p: ParsedWhois): { got: object; want: object } {
  const got: Record<string, unknown> = { outcome: p.outcome };
  const want: Record<string, unknown> = { outcome: c.outcome };
  const field = (name: string, have: unknown, expected: unknown) => {
    if (expected === undefined) return;
    got[name] = have;
    want[name] = expected;
  };
  field('domain', p.domain, c.domain);
  field('registrar', p.registrar, c.registrar);
  field('creation_date', day(p.creation_date), c.creation_date);
  field('expiration_date', day(p.expiration_date), c.expiration_date);
  field('last_updated', day(p.last_updated), c.last_updated);
  field('name_servers', set(p.name_servers), c.name_servers && set(c.name_servers));
  field('status', set(p.status), c.status && set(c.status));
  field(
    'not_status',
    c.not_status?.filter((v) => p.status.includes(v)),
    c.not_status && [],
  );
  field('refusal', p.refusal, c.refusal);
  return { got, want };
}

describe('WHOIS answers of the kinds missed outside the corpora (test/fixtures/whois-extra)', () => {
  test('every answer file has one entry in expected.json, and every entry its file', () => {
    expect(answerFiles(root)).toEqual(cases.map((c) => c.file).sort());
    expect(cases.length).toBe(30);
  });

  const kinds: [Kind, string][] = [
    ['dot-leaders', 'the "Key:.........value" layout (JWhoisServer: .tg, .tn)'],
    ['dates', 'ctime dates and "Domain registered: MM/DD/YYYY" (Neustar, Afilias, Freenom)'],
    ['query-status', 'numeric query statuses: 4xx/5xx refuse, "not managed" is not found (.nz)'],
    ['not-found-pattern', 'a registered answer with "NO OBJECT FOUND!" of its linked objects'],
    ['contact-state', 'a contact\'s "State:" is an address, not the domain\'s status'],
    ['placeholder-ns', 'placeholder name servers are dropped ("not.defined")'],
  ];
  for (const [kind, title] of kinds) {
    describe(title, () => {
      const of = cases.filter((c) => c.kind === kind);
      test('the kind has real answers', () => expect(of.length).toBeGreaterThanOrEqual(3));
      test.each(of.map((c) => [c.file, c] as const))('%s', (_file, c) => {
        const { got, want } = compare(c, parse(c));
        expect(got).toEqual(want);
      });
    });
  }

  test('the share of stated fields parsed right is printed', () => {
    let right = 0;
    let all = 0;
    for (const c of cases) {
      const { got, want } = compare(c, parse(c));
      for (const [name, value] of Object.entries(want)) {
        all++;
        if (JSON.stringify((got as Record<string, unknown>)[name]) === JSON.stringify(value)) {
          right++;
        }
      }
    }
    console.log(
      `[whois extra] ${right}/${all} stated fields right = ${((100 * right) / all).toFixed(1)} % (${cases.length} answers)`,
    );
    expect(all).toBeGreaterThan(150);
  });
});
