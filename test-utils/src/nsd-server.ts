/**
 * Real DNS servers from Debian for the DNSSEC tests: NSD (authoritative) and Unbound (validating
 * recursor), unprivileged, on a free loopback port, with every file they write in a temp
 * directory the test file removes (`tempDir`). `.ci/run` installs them (nsd, unbound).
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as packet from 'dns-packet';
import { freePort } from './http-server.js';
import { tempDir } from './temp-dir.js';

/** True when `command` runs (`nsd -v`, `unbound -V`, …). */
export function toolAvailable(command: string, args: readonly string[] = ['-v']): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.error === undefined;
}

export interface ServedZone {
  /** Zone origin without trailing dot (`` for the root). */
  name: string;
  /** Absolute path of the zone file (signed or not). */
  file: string;
}

export interface LoopbackDnsProcess {
  host: string;
  port: number;
  /** `127.0.0.1:port`. */
  address: string;
  /** The directory that holds the configuration and state files. */
  dir: string;
  /** What the server wrote to stderr so far (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

/**
 * NSD serving `zones` on 127.0.0.1 (UDP and TCP, one port). Waits until it answers the SOA of
 * the first zone.
 */
export async function startNsd(zones: readonly ServedZone[]): Promise<LoopbackDnsProcess> {
  const dir = tempDir('netdiag-nsd-');
  const port = await freePort();
  const zoneBlocks = zones
    .map((z) => `zone:\n  name: "${z.name === '' ? '.' : z.name}"\n  zonefile: "${z.file}"\n`)
    .join('');
  // nsd.conf(5): no user switch, no chroot, every state file in `dir`, one server process.
  const conf = `server:
  ip-address: 127.0.0.1@${port}
  port: ${port}
  do-ip6: no
  username: ""
  chroot: ""
  zonesdir: "${dir}"
  pidfile: "${join(dir, 'nsd.pid')}"
  zonelistfile: "${join(dir, 'zone.list')}"
  xfrdfile: "${join(dir, 'xfrd.state')}"
  xfrdir: "${dir}"
  database: ""
  logfile: "${join(dir, 'nsd.log')}"
  server-count: 1
  verbosity: 1
  hide-version: yes
  # No response rate limiting (nsd.conf(5) rrl-ratelimit): a benchmark's thousands of
  # NXDOMAINs from one address would otherwise be dropped or truncated.
  rrl-ratelimit: 0
remote-control:
  control-enable: no
${zoneBlocks}`;
  const confFile = join(dir, 'nsd.conf');
  writeFileSync(confFile, conf);
  const child = spawn('nsd', ['-d', '-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  const first = zones[0]?.name ?? '';
  return ready(child, dir, port, first === '' ? '.' : first, 'nsd');
}

export interface UnboundOptions {
  /** The NSD (or other) authoritative server for every zone of the test hierarchy. */
  authority: string;
  /** Zones to reach through `authority` (a stub zone each, the root included). */
  zones: readonly string[];
  /** Trust anchors in zone-file format (DS or DNSKEY records of the root). */
  trustAnchor: string;
  /** `val-override-date` (YYYYMMDDHHMMSS) to validate at a fixed time. */
  overrideDate?: string;
}

/**
 * Unbound as a validating recursor on 127.0.0.1, reaching the test hierarchy through stub zones
 * that all point at `authority` (so it never asks a real root server).
 */
export async function startUnbound(options: UnboundOptions): Promise<LoopbackDnsProcess> {
  const dir = tempDir('netdiag-unbound-');
  const port = await freePort();
  const anchorFile = join(dir, 'root.key');
  writeFileSync(anchorFile, `${options.trustAnchor.trim()}\n`);
  const stubs = options.zones
    .map(
      (z) =>
        `stub-zone:\n  name: "${z === '' ? '.' : z}"\n  stub-addr: ${options.authority.replace(':', '@')}\n`,
    )
    .join('');
  // unbound.conf(5): foreground, no user switch or chroot, loopback only; localhost may be asked
  // (the stub addresses are on 127.0.0.1); the default local zones are off for the test names.
  const conf = `server:
  interface: 127.0.0.1@${port}
  port: ${port}
  do-ip6: no
  do-daemonize: no
  username: ""
  chroot: ""
  directory: "${dir}"
  pidfile: "${join(dir, 'unbound.pid')}"
  use-syslog: no
  logfile: ""
  verbosity: 0
  val-log-level: 2
  ede: yes
  access-control: 127.0.0.0/8 allow
  do-not-query-localhost: no
  module-config: "validator iterator"
  trust-anchor-file: "${anchorFile}"
  qname-minimisation: no
  aggressive-nsec: no
  val-permissive-mode: no
  cache-max-ttl: 0
  cache-max-negative-ttl: 0
${options.overrideDate ? `  val-override-date: "${options.overrideDate}"\n` : ''}remote-control:
  control-enable: no
${stubs}`;
  const confFile = join(dir, 'unbound.conf');
  writeFileSync(confFile, conf);
  const child = spawn('unbound', ['-d', '-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  return ready(child, dir, port, '.', 'unbound');
}

async function ready(
  child: ChildProcess,
  dir: string,
  port: number,
  probeName: string,
  label: string,
): Promise<LoopbackDnsProcess> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  };
  for (let i = 0; i < 200; i++) {
    if (exited) throw new Error(`${label} exited at start: ${stderr}`);
    if (await answers(port, probeName)) {
      return {
        host: '127.0.0.1',
        port,
        address: `127.0.0.1:${port}`,
        dir,
        log: () => stderr,
        close,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error(`${label} did not answer on 127.0.0.1:${port}: ${stderr}`);
}

/** One SOA question over UDP; true on any answer within 200 ms. */
function answers(port: number, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 200);
    socket.on('message', () => done(true));
    socket.on('error', () => done(false));
    const query = packet.encode({
      type: 'query',
      id: 1,
      flags: packet.RECURSION_DESIRED,
      questions: [{ type: 'SOA', name, class: 'IN' }],
    });
    // Bound to loopback first: an unbound socket would bind 0.0.0.0 implicitly.
    socket.bind(0, '127.0.0.1', () => socket.send(query, port, '127.0.0.1'));
  });
}
