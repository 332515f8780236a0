/**
 * Real TLS servers for the TLS checker's tests: a small PKI made with the `openssl` CLI (a root,
 * an intermediate, and leaves that are good, expired, self-signed, for the wrong name, RSA 1024,
 * ECDSA P-256), an OCSP response for the good leaf, and `openssl s_server` processes on loopback
 * serving them with the protocol, suite and ALPN settings a test asks for.
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { freePort } from './http-server.js';

export interface TestPki {
  dir: string;
  /** PEM of the root (give it as `ca` to trust the chain). */
  rootPem: string;
  files: {
    root: string;
    intermediate: string;
    /** Leaf for `tls.test` and 127.0.0.1, RSA 2048, signed by the intermediate. */
    leaf: string;
    leafKey: string;
    expired: string;
    expiredKey: string;
    wrongHost: string;
    wrongHostKey: string;
    rsa1024: string;
    rsa1024Key: string;
    ecdsa: string;
    ecdsaKey: string;
    selfSigned: string;
    selfSignedKey: string;
    /** DER OCSP response "good" for `leaf`, signed by the intermediate. */
    ocsp: string;
  };
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Makes the PKI in `dir` (about a second: a few key generations and signatures). */
export function makeTestPki(dir: string): TestPki {
  mkdirSync(dir, { recursive: true });
  for (const ca of ['root', 'int']) {
    mkdirSync(join(dir, `${ca}-db`), { recursive: true });
    writeFileSync(join(dir, `${ca}-db`, 'index.txt'), '');
    writeFileSync(join(dir, `${ca}-db`, 'serial'), ca === 'root' ? '1000\n' : '2000\n');
  }
  // `openssl ca` for the signatures: it can set any validity window (an expired leaf) and keeps
  // the index an OCSP responder needs.
  const config = (ca: string) => `
[ca]
default_ca = this
[this]
dir = ${join(dir, `${ca}-db`)}
database = $dir/index.txt
serial = $dir/serial
new_certs_dir = $dir
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
[v3_ca]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
[v3_leaf]
basicConstraints = CA:false
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
authorityInfoAccess = OCSP;URI:http://127.0.0.1:9/ocsp
`;
  writeFileSync(join(dir, 'root.cnf'), config('root'));
  writeFileSync(join(dir, 'int.cnf'), config('int'));
  const rsa = (name: string, bits = 2048) =>
    openssl(dir, [
      'genpkey',
      '-algorithm',
      'RSA',
      '-pkeyopt',
      `rsa_keygen_bits:${bits}`,
      '-out',
      `${name}.key`,
    ]);
  rsa('root');
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    'root.key',
    '-subj',
    '/CN=netdiag test root',
    '-days',
    '3650',
    '-sha256',
    '-addext',
    'basicConstraints=critical,CA:true',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    'root.pem',
  ]);
  rsa('int');
  openssl(dir, [
    'req',
    '-new',
    '-key',
    'int.key',
    '-subj',
    '/CN=netdiag test intermediate',
    '-out',
    'int.csr',
  ]);
  openssl(dir, [
    'ca',
    '-batch',
    '-config',
    'root.cnf',
    '-cert',
    'root.pem',
    '-keyfile',
    'root.key',
    '-extensions',
    'v3_ca',
    '-days',
    '1825',
    '-in',
    'int.csr',
    '-out',
    'int.pem',
    '-notext',
  ]);
  const leaf = (name: string, subject: string, sans: string, dates: string[], key: () => void) => {
    key();
    openssl(dir, [
      'req',
      '-new',
      '-key',
      `${name}.key`,
      '-subj',
      `/CN=${subject}`,
      '-addext',
      `subjectAltName=${sans}`,
      '-out',
      `${name}.csr`,
    ]);
    openssl(dir, [
      'ca',
      '-batch',
      '-config',
      'int.cnf',
      '-cert',
      'int.pem',
      '-keyfile',
      'int.key',
      '-extensions',
      'v3_leaf',
      ...dates,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-notext',
    ]);
  };
  const days = ['-days', '90'];
  leaf('leaf', 'tls.test', 'DNS:tls.test,IP:127.0.0.1', days, () => rsa('leaf'));
  leaf(
    'expired',
    'tls.test',
    'DNS:tls.test,IP:127.0.0.1',
    ['-startdate', '20240101000000Z', '-enddate', '20240401000000Z'],
    () => rsa('expired'),
  );
  leaf('wrong', 'other.test', 'DNS:other.test', days, () => rsa('wrong'));
  leaf('rsa1024', 'tls.test', 'DNS:tls.test,IP:127.0.0.1', days, () => rsa('rsa1024', 1024));
  leaf('ecdsa', 'tls.test', 'DNS:tls.test,IP:127.0.0.1', days, () =>
    openssl(dir, [
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      'ecdsa.key',
    ]),
  );
  rsa('self');
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    'self.key',
    '-subj',
    '/CN=tls.test',
    '-days',
    '90',
    '-addext',
    'subjectAltName=DNS:tls.test,IP:127.0.0.1',
    '-out',
    'self.pem',
  ]);
  // An OCSP response for the good leaf (RFC 6960), to staple.
  openssl(dir, [
    'ocsp',
    '-issuer',
    'int.pem',
    '-cert',
    'leaf.pem',
    '-no_nonce',
    '-reqout',
    'ocsp.req',
  ]);
  openssl(dir, [
    'ocsp',
    '-index',
    join(dir, 'int-db', 'index.txt'),
    '-rsigner',
    'int.pem',
    '-rkey',
    'int.key',
    '-CA',
    'int.pem',
    '-reqin',
    'ocsp.req',
    '-respout',
    'ocsp.der',
    '-ndays',
    '7',
  ]);
  const f = (name: string) => join(dir, name);
  return {
    dir,
    rootPem: readFileSync(f('root.pem'), 'utf8'),
    files: {
      root: f('root.pem'),
      intermediate: f('int.pem'),
      leaf: f('leaf.pem'),
      leafKey: f('leaf.key'),
      expired: f('expired.pem'),
      expiredKey: f('expired.key'),
      wrongHost: f('wrong.pem'),
      wrongHostKey: f('wrong.key'),
      rsa1024: f('rsa1024.pem'),
      rsa1024Key: f('rsa1024.key'),
      ecdsa: f('ecdsa.pem'),
      ecdsaKey: f('ecdsa.key'),
      selfSigned: f('self.pem'),
      selfSignedKey: f('self.key'),
      ocsp: f('ocsp.der'),
    },
  };
}

export interface OpensslServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `openssl s_server` on 127.0.0.1 with `cert`/`key`, the `chain` certificates sent after the leaf
 * (none: an incomplete chain), and any further s_server arguments (`-tls1`, `-cipher …`,
 * `-alpn h2`, `-status_file ocsp.der`). Resolves once it accepts connections.
 */
export async function startOpensslServer(options: {
  cert: string;
  key: string;
  chain?: string[];
  args?: string[];
}): Promise<OpensslServer> {
  const port = await freePort();
  const chainFile = options.chain?.length
    ? (() => {
        const path = `${options.cert}.chain-${port}.pem`;
        writeFileSync(path, options.chain.map((c) => readFileSync(c, 'utf8')).join(''));
        return path;
      })()
    : undefined;
  const child: ChildProcess = spawn(
    'openssl',
    [
      's_server',
      '-accept',
      `127.0.0.1:${port}`,
      '-cert',
      options.cert,
      '-key',
      options.key,
      ...(chainFile ? ['-cert_chain', chainFile] : []),
      '-www',
      '-quiet',
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`openssl s_server exited: ${stderr}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`openssl s_server did not listen: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
