/**
 * `netdiag dnssec` and `netdiag dns --dnssec` against zones signed by dnssec-signzone and
 * ldns-signzone, served by NSD on loopback, with the test root as trust anchor (issue 19).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSignedHierarchy,
  dnssecTestTree,
  type LoopbackDnsProcess,
  signedTreeToolsPresent,
  startNsd,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

const present = signedTreeToolsPresent();

let nsd: LoopbackDnsProcess;
let anchorFile: string;

async function cli(...argv: string[]) {
  const capture = captureIO();
  const code = await run(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe.skipIf(!present)('netdiag dnssec', () => {
  beforeAll(async () => {
    const dir = tempDir('netdiag-cli-dnssec-');
    const built = buildSignedHierarchy(dir, dnssecTestTree());
    nsd = await startNsd(built.zones);
    anchorFile = join(dir, 'root.ds');
    writeFileSync(anchorFile, `${built.trustAnchor}\n`);
  }, 60_000);
  afterAll(() => nsd?.close());

  const ask = (...args: string[]) =>
    cli('dnssec', ...args, `@${nsd.address}`, '--trust-anchor', anchorFile);

  test('text: the verdict, the chain from the root, the signed answer', async () => {
    const { code, stdout, stderr } = await ask('www.p384.example');
    expect(stderr).toBe('');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^www\.p384\.example\. A: SECURE\n/);
    expect(stdout).toMatch(/Chain:\n {2}\. +secure +anchor DS \d+\/8 matched/);
    expect(stdout).toMatch(/\n {2}p384\.example\. +secure +DS \d+\/14 matched/);
    expect(stdout).toContain('Answer: NOERROR\n  www.p384.example. 300 IN A 192.0.2.1');
  });

  test('--fail-on bogus: exit 5 on a bogus chain, the failing rule printed', async () => {
    const bogus = await ask('www.expired.example', '--fail-on', 'bogus');
    expect(bogus.code).toBe(EXIT.gate);
    expect(bogus.stdout).toMatch(/A: BOGUS\n/);
    expect(bogus.stdout).toMatch(/Failure at expired\.example\. \(expired\.example\. DNSKEY\)/);
    expect(bogus.stdout).toMatch(/signatures: .*\d+\/13 expired/);
    const secure = await ask('www.rsa.example', '--fail-on', 'bogus');
    expect(secure.code).toBe(EXIT.ok);
  });

  test('--json is the API data; insecure shows the proof of no DS', async () => {
    const { code, stdout } = await ask('www.unsigned.example', '--json');
    expect(code).toBe(EXIT.ok);
    const data = JSON.parse(stdout);
    expect(data.status).toBe('insecure');
    expect(data.chain.at(-1)).toMatchObject({
      zone: 'unsigned.example.',
      no_ds_proof: { kind: 'nsec3', opt_out: true },
    });
  });

  test('--max-queries: past the question budget the answer is indeterminate, the limit named', async () => {
    const { code, stdout } = await ask('www.p384.example', '--max-queries', '3');
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(
      /^www\.p384\.example\. A: INDETERMINATE\n {2}the validation asked the 3 DNS questions its budget allows \(maxQueries\) before it could ask for p384\.example\. DS/,
    );
    const bad = await ask('www.p384.example', '--max-queries', '0');
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.stderr).toMatch(/--max-queries must be a whole number above 0/);
    // The library's default, said in the help.
    const help = await cli('dnssec', '--help');
    expect(help.stdout).toMatch(/--max-queries <n>[\s\S]*\(default 200\)/);
  });

  test('-t picks the type; an unknown type is a usage error', async () => {
    const tlsa = await ask('_443._tcp.p256.example', '-t', 'tlsa');
    expect(tlsa.code).toBe(EXIT.ok);
    expect(tlsa.stdout).toMatch(/^_443\._tcp\.p256\.example\. TLSA: SECURE/);
    const bad = await ask('www.p256.example', '-t', 'ANY');
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.stderr).toMatch(/unknown record type ANY/);
  });

  test('netdiag dns: the new types as dig prints them, --dnssec adds the RRSIGs', async () => {
    const https = await cli('dns', 'svc.p256.example', 'HTTPS', `@${nsd.address}`, '--short');
    expect(https.stdout).toBe(
      '1 . mandatory=alpn,port alpn="h2,h3" port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQBBpQAgACB/ ipv6hint=2001:db8::1,2001:db8::2\n',
    );
    const signed = await cli('dns', 'www.p256.example', `@${nsd.address}`, '--dnssec');
    expect(signed.code).toBe(EXIT.ok);
    expect(signed.stdout).toMatch(/www\.p256\.example\. +300 +RRSIG +A 13 3 300 /);
  });
});
