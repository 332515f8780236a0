/**
 * `ENDPOINT_SCHEMAS` (the typed map of every enveloped operation's schemas, public since before
 * the registry) and the registry pair the same schemas: the two lists cannot drift apart.
 */
import { expect, test } from 'vitest';
import { CAPABILITIES } from './registry.js';
import { ENDPOINT_SCHEMAS } from './schemas/index.js';

test('each HTTP descriptor has the schemas ENDPOINT_SCHEMAS names for its operation', () => {
  const entries = ENDPOINT_SCHEMAS as Record<
    string,
    { params?: unknown; body?: unknown; data: unknown }
  >;
  for (const capability of CAPABILITIES.filter((c) => c.http)) {
    const entry = entries[capability.id];
    expect(entry, capability.id).toBeDefined();
    expect(entry?.params ?? entry?.body ?? capability.params, capability.id).toBe(
      capability.params,
    );
    expect(entry?.data, capability.id).toBe(capability.data);
  }
  // The rest are the HTTP face's own enveloped routes.
  const registered = new Set(CAPABILITIES.map((c) => c.id));
  expect(
    Object.keys(ENDPOINT_SCHEMAS)
      .filter((id) => !registered.has(id))
      .sort(),
  ).toEqual(['echoHeaders', 'health']);
});
