/**
 * Agreement with testssl.sh (Debian's testssl.sh 3.0.8, an independent implementation in bash
 * over OpenSSL and raw sockets): on the same loopback servers, both must find the same
 * protocols, the same accepted suites per protocol and the same certificate facts. testssl.sh
 * runs with `--nodns none`, so it asks no resolver, and only ever connects to 127.0.0.1.
 * What the two cannot compare is documented in docs/tls.md (SSL 2/3, the grade: 3.0.8 has no
 * `--rating`).
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  makeTestPki,
  type OpensslServer,
  prerequisite,
  startOpensslServer,
  type TestPki,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkTls, type TlsCheckResult } from '../../src/tls/check-tls.js';

const haveTestssl = prerequisite(
  'testssl.sh',
  spawnSync('testssl', ['--version'], { stdio: 'ignore' }).status === 0,
  'apt-get install testssl.sh',
);
const dir = tempDir('netdiag-testssl-');
let pki: TestPki;
const servers: OpensslServer[] = [];

interface Finding {
  id: string;
  finding: string;
}

/** testssl.sh's JSON findings for 127.0.0.1:port (-p protocols, -E suites per protocol, -S certificate). */
function testssl(port: number): Promise<{ findings: Finding[]; seconds: number }> {
  const out = join(dir, `testssl-${port}.json`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // At low priority: testssl.sh forks an openssl process per suite it tries, and the test files
    // running beside this one have time budgets of their own.
    execFile(
      'nice',
      [
        '-n',
        '15',
        'testssl',
        '--nodns',
        'none',
        '--warnings',
        'off',
        '--color',
        '0',
        '--quiet',
        '-p',
        '-E',
        '-S',
        '--jsonfile',
        out,
        `127.0.0.1:${port}`,
      ],
      { timeout: 600_000, maxBuffer: 1 << 26 },
      (error) => {
        if (error && !readFileSafe(out)) return reject(error);
        resolve({
          findings: JSON.parse(readFileSync(out, 'utf8')) as Finding[],
          seconds: (performance.now() - started) / 1000,
        });
      },
    );
  });
}

function readFileSafe(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

const VERSION_IDS: Record<string, string> = {
  TLS1: 'TLSv1',
  TLS1_1: 'TLSv1.1',
  TLS1_2: 'TLSv1.2',
  TLS1_3: 'TLSv1.3',
};

/** What testssl.sh found, in netdiag's terms. */
function fromTestssl(findings: Finding[]) {
  const get = (id: string) => findings.find((f) => f.id === id)?.finding ?? '';
  const protocols = Object.entries(VERSION_IDS)
    .filter(([id]) => get(id).startsWith('offered'))
    .map(([, version]) => version);
  const suites: Record<string, string[]> = {};
  for (const f of findings) {
    const match = /^cipher-(tls1(?:_\d)?)_x/.exec(f.id);
    if (!match) continue;
    const version = VERSION_IDS[(match[1] as string).toUpperCase()] as string;
    const name = f.finding.trim().split(/\s+/)[3] as string; // "TLS 1.2 xc030 NAME …"
    suites[version] = [...(suites[version] ?? []), name];
  }
  const [keyType, keyBits] = get('cert_keySize').split(' ');
  return {
    protocols,
    suites: Object.fromEntries(Object.entries(suites).map(([v, names]) => [v, names.sort()])),
    key: { type: keyType === 'EC' ? 'EC' : keyType, bits: Number(keyBits) },
    signature: get('cert_signatureAlgorithm'),
    sha256: get('cert_fingerprintSHA256'),
    notAfter: get('cert_notAfter'),
    san: get('cert_subjectAltName').split(/\s+/).filter(Boolean).sort(),
    served: Number(get('certs_countServer')),
    order: get('certs_list_ordering_problem') === 'no' ? 'correct' : 'wrong',
    expired: /expired/i.test(get('cert_expirationStatus')),
    ocsp: get('OCSP_stapling').startsWith('offered'),
  };
}

/** The same facts from netdiag's answer. */
function fromNetdiag(r: TlsCheckResult) {
  const leaf = r.certificates[0];
  const signature: Record<string, string> = {
    sha256WithRSAEncryption: 'SHA256 with RSA',
    sha384WithRSAEncryption: 'SHA384 with RSA',
    'ecdsa-with-SHA256': 'ECDSA with SHA256',
  };
  return {
    protocols: r.protocols.filter((p) => p.accepted).map((p) => p.protocol),
    suites: Object.fromEntries(
      r.cipher_suites.map((p) => [p.protocol, p.suites.map((s) => s.name).sort()]),
    ),
    key: { type: leaf?.key_type, bits: leaf?.key_bits },
    signature: signature[leaf?.signature_algorithm ?? ''] ?? leaf?.signature_algorithm,
    sha256: leaf?.sha256.replace(/:/g, ''),
    notAfter: leaf?.valid_to.slice(0, 16).replace('T', ' '),
    san: [...(leaf?.san ?? [])].sort(),
    served: r.chain.served,
    order: r.chain.order,
    expired: r.chain.expired,
    ocsp: r.ocsp_stapling,
  };
}

beforeAll(() => {
  if (haveTestssl) pki = makeTestPki(join(dir, 'pki'));
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe.skipIf(!haveTestssl)('netdiag and testssl.sh agree', () => {
  test('protocols, suites per protocol and certificate facts, on four servers', {
    timeout: 900_000,
  }, async () => {
    const setups: { name: string; options: Parameters<typeof startOpensslServer>[0] }[] = [
      {
        name: 'modern (TLS 1.2 + 1.3, OCSP stapled)',
        options: {
          cert: pki.files.leaf,
          key: pki.files.leafKey,
          chain: [pki.files.intermediate],
          args: ['-status_file', pki.files.ocsp],
        },
      },
      {
        name: 'TLS 1.0 only, RSA 1024',
        options: {
          cert: pki.files.rsa1024,
          key: pki.files.rsa1024Key,
          chain: [pki.files.intermediate],
          args: ['-tls1', '-cipher', 'ALL:@SECLEVEL=0'],
        },
      },
      {
        name: 'ECDSA P-256, three TLS 1.2 suites',
        options: {
          cert: pki.files.ecdsa,
          key: pki.files.ecdsaKey,
          chain: [pki.files.intermediate],
          args: [
            '-tls1_2',
            '-cipher',
            'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-SHA',
          ],
        },
      },
      {
        name: 'expired leaf',
        options: {
          cert: pki.files.expired,
          key: pki.files.expiredKey,
          chain: [pki.files.intermediate],
        },
      },
    ];
    const ports: number[] = [];
    for (const setup of setups) {
      const server = await startOpensslServer(setup.options);
      servers.push(server);
      ports.push(server.port);
    }
    // testssl.sh first, one at a time (each is a long chain of openssl calls: 40–110 s on this
    // machine; four at once starved the other test files), then netdiag.
    const theirs: { findings: Finding[]; seconds: number }[] = [];
    for (const port of ports) theirs.push(await testssl(port));
    for (const [i, setup] of setups.entries()) {
      const started = performance.now();
      const ours = await checkTls('127.0.0.1', {
        port: ports[i] as number,
        servername: 'tls.test',
        allowedTargets: ['127.0.0.0/8'],
        ca: pki.rootPem,
        hsts: false,
      });
      const ms = performance.now() - started;
      const them = fromTestssl(theirs[i]?.findings ?? []);
      const us = fromNetdiag(ours);
      console.log(
        `${setup.name}: netdiag ${Math.round(ms)} ms, testssl.sh ${theirs[i]?.seconds.toFixed(1)} s; ` +
          `${Object.values(us.suites).flat().length} suites`,
      );
      expect(us, setup.name).toEqual(them);
    }
  });
});
