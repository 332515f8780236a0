import { expect, test } from 'vitest';
import { toRdapStatus } from './status.js';

test('statuses map to their RDAP names in any spelling; anything else stays as printed', () => {
  expect(toRdapStatus('CLIENT_TRANSFER_PROHIBITED')).toBe('client transfer prohibited');
  expect(toRdapStatus('serverUpdateProhibited')).toBe('server update prohibited');
  expect(toRdapStatus('Delete Prohibited by Registrar')).toBe('client delete prohibited');
  expect(toRdapStatus(`ok${' '.repeat(300_000)}`)).toBe('active');
  expect(toRdapStatus(`clientHold${'x'.repeat(20)}`)).toBe(`clientHold${'x'.repeat(20)}`);
});
