/**
 * A loopback HTTPS target for probe tests: like `startHttpTarget`, with a self-signed
 * certificate made by `openssl` for the names and addresses given. Pass `cert` as an extra
 * trusted CA to make it valid; leave it out to test an untrusted certificate.
 * @module
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpTarget, HttpTargetOptions } from './http-server.js';
import { prerequisite } from './prerequisite.js';

export interface HttpsTargetOptions extends HttpTargetOptions {
  /** DNS names in the certificate. @default ['secure.fixture.test'] */
  names?: string[];
  /** IP addresses in the certificate. @default [host] */
  ips?: string[];
  /** Validity in days from now. @default 30 */
  days?: number;
  /** Issuer/subject organisation. @default 'Netdiag Test CA' */
  organisation?: string;
}

export interface HttpsTarget extends HttpTarget {
  /** PEM of the self-signed certificate (trust it with a client's `ca` option). */
  cert: string;
}

/**
 * True when the `openssl` binary can be run. Tests skip the TLS cases otherwise, except under
 * `CI=true`, where a missing openssl fails the run (`prerequisite`).
 */
export function opensslAvailable(): boolean {
  let present = true;
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    present = false;
  }
  return prerequisite('openssl', present, 'apt-get install openssl');
}

/** Makes a self-signed EC certificate with the given SANs. */
export function makeSelfSignedCert(options: {
  names: string[];
  ips: string[];
  days: number;
  organisation: string;
}): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-cert-'));
  try {
    const san = [...options.names.map((n) => `DNS:${n}`), ...options.ips.map((ip) => `IP:${ip}`)];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        String(options.days),
        '-subj',
        `/CN=${options.names[0] ?? options.ips[0] ?? 'fixture'}/O=${options.organisation}`,
        '-addext',
        `subjectAltName=${san.join(',')}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttpsTarget(options: HttpsTargetOptions = {}): Promise<HttpsTarget> {
  const host = options.host ?? '127.0.0.1';
  const routes = options.routes ?? {};
  const { key, cert } = makeSelfSignedCert({
    names: options.names ?? ['secure.fixture.test'],
    ips: options.ips ?? [host],
    days: options.days ?? 30,
    organisation: options.organisation ?? 'Netdiag Test CA',
  });
  const sockets = new Set<Socket>();
  const target = { connections: 0, requests: [] as string[], routes } as HttpsTarget;
  const server = https.createServer({ key, cert }, (req, res) => {
    target.requests.push(req.url ?? '/');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const handler = routes[path] ?? routes['*'];
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (socket: Socket) => {
    target.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(target, {
    host,
    port,
    cert,
    url: host.includes(':') ? `https://[${host}]:${port}` : `https://${host}:${port}`,
    server: server as unknown as HttpTarget['server'],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
