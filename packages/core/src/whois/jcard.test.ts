import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { flattenValue, getProperties, getText, JCardError, parseJCard } from './jcard.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const corpora = process.env.NETDIAG_CORPORA ?? join(repo, '..', 'shared', 'corpora');
const rdapDir = join(corpora, 'rdap');
const present = prerequisite(
  'RDAP corpus',
  existsSync(join(rdapDir, 'rdap-cases.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);
if (!present) console.warn(`[jcard] corpus tests skipped: no corpus at ${rdapDir}`);

interface JCardCase {
  id: string;
  file: string;
  expected: unknown;
}
const cases: JCardCase[] = present
  ? (
      JSON.parse(readFileSync(join(rdapDir, 'rdap-cases.json'), 'utf8')) as {
        jcard_cases: JCardCase[];
      }
    ).jcard_cases
  : [];
const text = (c: JCardCase) => readFileSync(join(rdapDir, c.file), 'utf8');

const corpus = present ? describe : describe.skip;

corpus('jCard corpus (openrdap vcard_test.go cases)', () => {
  const malformed = cases.filter((c) => typeof c.expected === 'string');
  test('the corpus holds 13 jCard cases, 10 of them malformed', () => {
    expect([cases.length, malformed.length]).toEqual([13, 10]);
  });
  test.each(malformed.map((c) => [c.id, c] as const))('%s is rejected', (_id, c) => {
    expect(() => parseJCard(text(c))).toThrow(JCardError);
  });

  test('the RFC 7095 example: properties, values, parameters and accessors', () => {
    const c = cases.find((x) => x.id === 'openrdap-jcard-example') as JCardCase;
    const expected = c.expected as {
      property_count: number;
      version: unknown;
      n: { value: unknown; flattened: string[] };
      'tel[0]': unknown;
      accessors: Record<string, string>;
    };
    const card = parseJCard(text(c));
    expect(card.properties).toHaveLength(expected.property_count);
    expect(getProperties(card, 'version')[0]).toEqual(expected.version);
    const n = getProperties(card, 'n')[0];
    expect(n?.value).toEqual(expected.n.value);
    expect(flattenValue(n?.value ?? '')).toEqual(expected.n.flattened);
    expect(getProperties(card, 'tel')[0]).toEqual(expected['tel[0]']);
    const accessors = expected.accessors;
    expect(getText(card, 'fn')).toBe(accessors['fn/name']);
    expect(getText(card, 'org')).toBe(accessors['org']);
    expect(getText(card, 'email')).toBe(accessors['email']);
  });

  test('mixed value types and multiple values (RFC 7095 §3.3.1.4)', () => {
    const c = cases.find((x) => x.id === 'openrdap-jcard-mixed') as JCardCase;
    const expected = (
      c.expected as { mixed: { type: string; value: unknown; flattened: string[] } }
    ).mixed;
    const mixed = getProperties(parseJCard(text(c)), 'mixed')[0];
    expect(mixed?.type).toBe(expected.type);
    expect(mixed?.value).toEqual(expected.value);
    expect(flattenValue(mixed?.value ?? '')).toEqual(expected.flattened);
  });

  test('invalid properties: the card is rejected', () => {
    const c = cases.find((x) => x.id === 'openrdap-jcard-invalid-properties') as JCardCase;
    expect(() => parseJCard(text(c))).toThrow(JCardError);
  });
});

describe('jCard structure rules', () => {
  test.each([
    ['not an array', { vcard: [] }],
    ['wrong label', ['vCardX', []]],
    ['three members', ['vcard', [], []]],
    ['parameters as array', ['vcard', [['fn', [], 'text', 'x']]]],
    ['numeric parameter value', ['vcard', [['fn', { pref: 1 }, 'text', 'x']]]],
    ['object value', ['vcard', [['fn', {}, 'text', { a: 1 }]]]],
    ['empty name', ['vcard', [['', {}, 'text', 'x']]]],
  ])('%s is rejected', (_label, card) => {
    expect(() => parseJCard(card)).toThrow(JCardError);
  });

  test('names and parameter names are case-insensitive; parameter values become lists', () => {
    const card = parseJCard(['vcard', [['FN', { TYPE: 'work' }, 'TEXT', 'Example Registrar']]]);
    expect(card.properties[0]).toEqual({
      name: 'fn',
      parameters: { type: ['work'] },
      type: 'text',
      value: 'Example Registrar',
    });
    expect(getText(card, 'Fn')).toBe('Example Registrar');
    expect(getText(card, 'org')).toBe('');
  });
});
