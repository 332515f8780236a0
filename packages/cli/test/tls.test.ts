/** `netdiag tls` against a real `openssl s_server` on loopback. */
import {
  makeTestPki,
  type OpensslServer,
  opensslAvailable,
  startOpensslServer,
  type TestPki,
  tempDir,
} from '@netdiag/test-utils';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

const haveOpenssl = opensslAvailable();
let pki: TestPki;
let server: OpensslServer;

beforeAll(async () => {
  if (!haveOpenssl) return;
  pki = makeTestPki(tempDir('netdiag-cli-tls-'));
  server = await startOpensslServer({
    cert: pki.files.leaf,
    key: pki.files.leafKey,
    chain: [pki.files.intermediate],
    args: ['-tls1_2', '-serverpref', '-cipher', 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA'],
  });
}, 60_000);
afterAll(() => server?.close());

async function cli(...argv: string[]) {
  const capture = captureIO();
  const code = await run(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe.skipIf(!haveOpenssl)('netdiag tls', () => {
  test('text: the grade (T: the test root is not in the store), protocols, chain, suites', async () => {
    const { code, stdout, stderr } = await cli(
      'tls',
      `127.0.0.1:${server.port}`,
      '--allow-private',
    );
    expect(stderr).toBe('');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(
      new RegExp(
        `^127\\.0\\.0\\.1:${server.port} \\(127\\.0\\.0\\.1\\): grade T \\(A if it were trusted\\)`,
      ),
    );
    expect(stdout).toContain(
      'Protocols:   SSLv2 n/a, SSLv3 n/a, TLSv1 no, TLSv1.1 no, TLSv1.2 yes, TLSv1.3 no',
    );
    expect(stdout).toContain('NOT TRUSTED (UNABLE_TO_GET_ISSUER_CERT_LOCALLY)');
    expect(stdout).toMatch(
      /TLSv1\.2 suites \(server order\):\n {2}ECDHE-RSA-AES256-GCM-SHA384 .*strong\n {2}ECDHE-RSA-AES128-SHA .*acceptable/,
    );
  });

  test('--fail-under: T fails any gate (exit 5); csv has one row per suite', async () => {
    const gated = await cli(
      'tls',
      `127.0.0.1:${server.port}`,
      '--allow-private',
      '--fail-under',
      'B',
      '--json',
    );
    expect(gated.code).toBe(EXIT.gate);
    expect(JSON.parse(gated.stdout).grade).toBe('T');
    expect(gated.stderr).toMatch(/TLS grade T is below --fail-under B/);
    const csv = await cli('tls', `127.0.0.1:${server.port}`, '--allow-private', '--format', 'csv');
    const rows = parseCsv(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r['protocol'], r['suite'], r['strength']])).toEqual([
      ['TLSv1.2', 'ECDHE-RSA-AES256-GCM-SHA384', 'strong'],
      ['TLSv1.2', 'ECDHE-RSA-AES128-SHA', 'acceptable'],
    ]);
  });

  test('loopback without --allow-private is refused, naming the switch', async () => {
    const { code, stderr } = await cli('tls', `127.0.0.1:${server.port}`);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(/--allow-private/);
  });
});
