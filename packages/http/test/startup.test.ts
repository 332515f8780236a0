import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { startServer } from '../src/server.js';

describe('start-up', () => {
  test('a broken NETDIAG_GEOIP_DB stops start-up with a message naming it', async () => {
    const file = join(tempDir('netdiag-broken-'), 'broken.mmdb');
    writeFileSync(file, 'this is not a MaxMind database');
    await expect(
      startServer({ logLevel: 'silent', port: 0, host: '127.0.0.1', geoipDb: file }),
    ).rejects.toThrow(/NETDIAG_GEOIP_DB/);
  });
  test('a missing database file is reported too', async () => {
    await expect(
      startServer({
        logLevel: 'silent',
        port: 0,
        host: '127.0.0.1',
        asnDb: '/nonexistent/asn.mmdb',
      }),
    ).rejects.toThrow(/NETDIAG_ASN_DB/);
  });
});
