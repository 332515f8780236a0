/** The `/api/dnssec` schemas: parameter defaults, and answers that must fit the data schema. */
import { expect, test } from 'vitest';
import { formOf } from '../schemas/param.js';
import { dnssecDataSchema, validateDnssecParamsSchema } from './schema.js';

test('the documented type defaults to A and names no unknown type', () => {
  const type = formOf(validateDnssecParamsSchema, 'type');
  expect(type.parse(undefined)).toBe('A');
  expect(type.safeParse('ANY').success).toBe(false);
});

test('an indeterminate answer without chain or answer fits the schema', () => {
  const data = {
    name: 'example.com.',
    type: 'A',
    status: 'indeterminate',
    reason: 'no trust anchor covers example.com.',
    chain: [],
    trust_anchor: { zone: 'org.', source: 'configured', records: ['org. DS 1 8 2 AA'] },
    validated_at: '2026-11-24T10:00:00.000Z',
  };
  expect(dnssecDataSchema.parse(data)).toEqual(data);
});
