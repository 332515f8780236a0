/** `validateDnssec`'s result type against the `/api/dnssec` schema (checked by `tsc`). */
import { expect, test } from 'vitest';
import type { EndpointData } from '../schemas/index.js';
import { dnssecDataSchema, validateDnssecParamsSchema } from './schema.js';
import type { DnssecResult } from './types.js';

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Fails to compile unless a `DnssecResult` can be sent as the endpoint's `data`. */
function returns(_value: DeepReadonly<EndpointData<'validateDnssec'>>): void {}
returns({} as DnssecResult);

test('the parameters default to A and refuse unknown types', () => {
  expect(validateDnssecParamsSchema.parse({ domain: 'example.com' }).type).toBe('A');
  expect(validateDnssecParamsSchema.safeParse({ domain: 'example.com', type: 'ANY' }).success).toBe(
    false,
  );
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
