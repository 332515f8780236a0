/**
 * A bounded pool of UDP sockets for DNS queries (a socket per query cost about 30 % of the
 * resolver's CPU under load, BENCHMARKS.md), shared only in ways that keep the spoofing defence
 * of RFC 5452 §9.2 and §10 (an off-path attacker must guess both the query id and the source
 * port):
 *
 * - each socket is bound by the OS to a random ephemeral port and connected to one server, so
 *   the kernel drops datagrams from any other address or port, and an ICMP port-unreachable
 *   still fails the attempts on it at once (ECONNREFUSED) for fast failover;
 * - up to `maxSocketsPerServer` sockets per server; a query opens a new one while there are
 *   fewer, otherwise it takes one at random (crypto), so consecutive queries change port;
 * - every query gets a random id not already in flight on its socket; an answer is matched to
 *   its query by id, then checked against the question (name, type, class) and the server's
 *   address and port, so a forged or stray answer can neither settle its own query nor another
 *   one that shares the socket;
 * - a socket is retired after `maxQueriesPerSocket` queries or `maxSocketAgeMs`, takes no new
 *   query and is closed once its last answer is in, so the ports in use keep changing (as
 *   c-ares' `ARES_OPT_UDP_MAX_QUERIES` does);
 * - sockets and their age timers are unref'd: an idle pool never keeps the process alive.
 * @module
 */
import dgram from 'node:dgram';
import { isIP, SocketAddress } from 'node:net';
import { UpstreamError } from '../errors.js';
import { type DeadlineQueue, sharedDeadlines } from './deadlines.js';
import { randomBelow, randomUint16 } from './random-ids.js';
import { AttemptTimeout, type Finish, networkError } from './resolver-attempt.js';
import type { DnsServer } from './resolver-servers.js';
import { type DecodedMessage, matchResponse, type Query } from './resolver-wire.js';

export interface UdpSocketPoolOptions {
  /**
   * Sockets (source ports) open at once per server for new queries. More sockets means more
   * ports for an attacker to guess; retired sockets still draining are not counted.
   * @default 16
   */
  maxSocketsPerServer?: number;
  /**
   * Queries one socket carries before it is retired and a new port takes its place. It also
   * bounds the ids in flight on one socket, so a fresh id is always easy to find.
   * @default 64
   */
  maxQueriesPerSocket?: number;
  /**
   * Age after which a socket takes no new query, so a port is never used for long even when
   * queries are rare; an idle socket is closed at that age.
   * @default 10000
   */
  maxSocketAgeMs?: number;
  /** Where attempt timeouts are kept. @default the process-wide queue (one timer) */
  deadlines?: DeadlineQueue;
}

/** A snapshot of the pool, for tests and metrics. */
export interface UdpSocketPoolStats {
  /** Sockets open now (taking queries or draining). */
  open: number;
  /** Of those, retired sockets waiting for their last answers. */
  draining: number;
  /** Queries waiting for an answer. */
  inFlight: number;
  /** Sockets opened since the pool was created. */
  opened: number;
  /** Sockets closed since the pool was created. */
  closed: number;
}

/** Settles one UDP attempt: an error, or the decoded answer. */
export type UdpDone = (error: unknown, message?: DecodedMessage) => void;

export interface UdpSocketPool {
  /**
   * Sends `query` to `server` and calls `done` once: with the first datagram that answers it, a
   * network error, or an `AttemptTimeout` after `ms` (kept in the shared deadline queue). The id
   * on the wire may differ from `query.id` (it must be free on the socket). Returns a function
   * that cancels the attempt (no call to `done` after it).
   */
  send(server: DnsServer, query: Query, ms: number, done: UdpDone): () => void;
  stats(): UdpSocketPoolStats;
  /** Fails every pending query and closes every socket; later exchanges fail. */
  close(): void;
}

const noop = () => {};

/** RFC 1035 §4.1.1: the header is 12 bytes and starts with the 16-bit id. */
const HEADER_BYTES = 12;

interface Pending {
  query: Query;
  finish: Finish<DecodedMessage>;
}

interface PooledSocket {
  socket: dgram.Socket;
  group: ServerGroup;
  pending: Map<number, Pending>;
  /** Queries assigned so far. */
  used: number;
  retired: boolean;
  closed: boolean;
  connected: boolean;
  /** Datagrams sent before `connect` completed. */
  queue: { wire: Buffer; onError: (error: Error) => void }[];
  ageTimer: NodeJS.Timeout;
}

interface ServerGroup {
  server: DnsServer;
  /** The kernel's spelling of the server address, as `rinfo.address` reports it. */
  address: string;
  /** Sockets taking new queries. */
  active: PooledSocket[];
  /** Every open socket, active or draining. */
  all: Set<PooledSocket>;
}

export function createUdpSocketPool(options: UdpSocketPoolOptions = {}): UdpSocketPool {
  const maxSockets = Math.max(1, options.maxSocketsPerServer ?? 16);
  const maxQueries = Math.max(1, options.maxQueriesPerSocket ?? 64);
  const maxAge = Math.max(1, options.maxSocketAgeMs ?? 10_000);
  const deadlines = options.deadlines ?? sharedDeadlines();
  const groups = new Map<string, ServerGroup>();
  let opened = 0;
  let closedCount = 0;
  let poolClosed = false;

  /** No new query for this socket. */
  function deactivate(pooled: PooledSocket): void {
    pooled.retired = true;
    clearTimeout(pooled.ageTimer);
    const index = pooled.group.active.indexOf(pooled);
    if (index >= 0) pooled.group.active.splice(index, 1);
  }

  function destroy(pooled: PooledSocket): void {
    if (pooled.closed) return;
    pooled.closed = true;
    deactivate(pooled);
    const { group } = pooled;
    group.all.delete(pooled);
    if (group.all.size === 0 && groups.get(group.server.label) === group) {
      groups.delete(group.server.label);
    }
    closedCount++;
    try {
      pooled.socket.close();
    } catch {
      // already closed after an error
    }
  }

  /** No new query for this socket; it closes as soon as nothing is pending on it. */
  function retire(pooled: PooledSocket): void {
    if (pooled.retired) return;
    deactivate(pooled);
    if (pooled.pending.size === 0) destroy(pooled);
  }

  /** A socket error (ICMP unreachable surfaces as ECONNREFUSED) fails every query on it. */
  function fail(pooled: PooledSocket, error: unknown): void {
    retire(pooled);
    for (const entry of [...pooled.pending.values()]) entry.finish(error);
    destroy(pooled);
  }

  function open(group: ServerGroup): PooledSocket {
    const { server } = group;
    const socket = dgram.createSocket({
      type: server.family === 6 ? 'udp6' : 'udp4',
      lookup: literalLookup,
    });
    const pooled: PooledSocket = {
      socket,
      group,
      pending: new Map(),
      used: 0,
      retired: false,
      closed: false,
      connected: false,
      queue: [],
      ageTimer: setTimeout(() => retire(pooled), maxAge),
    };
    pooled.ageTimer.unref();
    socket.unref();
    opened++;
    group.active.push(pooled);
    group.all.add(pooled);
    socket.on('error', (error) => fail(pooled, networkError(server.label, error)));
    socket.on('message', (message, rinfo) => {
      // The connected socket already filters by source; checked again so that the rule does
      // not depend on it.
      if (rinfo.port !== server.port || rinfo.address !== group.address) return;
      if (message.length < HEADER_BYTES) return;
      const entry = pooled.pending.get(message.readUInt16BE(0));
      if (!entry) return;
      const decoded = matchResponse(message, entry.query);
      if (decoded) entry.finish(undefined, decoded);
    });
    try {
      // connect() binds first: port 0, i.e. a random ephemeral port chosen by the OS.
      // dgram reports a failed connect (e.g. ENETUNREACH) through this callback's argument;
      // sending on the unconnected socket then fails with a misleading "Port should be > 0".
      socket.connect(server.port, server.host, (error?: Error) => {
        if (pooled.closed) return;
        if (error) {
          pooled.queue.length = 0;
          fail(pooled, networkError(server.label, error));
          return;
        }
        pooled.connected = true;
        for (const item of pooled.queue.splice(0)) transmit(pooled, item.wire, item.onError);
      });
    } catch (error) {
      // A synchronous refusal (bad port, the test network guard) must not leave a socket
      // behind that would never connect.
      destroy(pooled);
      throw error;
    }
    return pooled;
  }

  function transmit(pooled: PooledSocket, wire: Buffer, onError: (error: Error) => void): void {
    if (!pooled.connected) {
      // dgram refuses to send on a socket that is still connecting.
      pooled.queue.push({ wire, onError });
      return;
    }
    try {
      // Without a callback a failed send is emitted as the socket's 'error', which fails the
      // queries in flight on it (`fail`): the server cannot be reached.
      pooled.socket.send(wire);
    } catch (error) {
      onError(error as Error);
    }
  }

  /** A new socket while the server has fewer than the cap, else one of them at random. */
  function pick(server: DnsServer): PooledSocket {
    let group = groups.get(server.label);
    if (!group) {
      group = { server, address: kernelAddress(server), active: [], all: new Set() };
      groups.set(server.label, group);
    }
    if (group.active.length < maxSockets) return open(group);
    return group.active[randomBelow(group.active.length)] as PooledSocket;
  }

  function send(server: DnsServer, query: Query, ms: number, done: UdpDone): () => void {
    let settled = false;
    let deadline: { cancel(): void } | undefined;
    let release: (() => void) | undefined;
    /** Ends the attempt; false when it had already ended. */
    const stop = (): boolean => {
      if (settled) return false;
      settled = true;
      deadline?.cancel();
      release?.();
      return true;
    };
    const finish: Finish<DecodedMessage> = (error, value) => {
      if (stop()) done(error, value);
    };
    if (poolClosed) {
      finish(networkError(server.label, new Error('the DNS socket pool is closed')));
      return noop;
    }
    let pooled: PooledSocket;
    try {
      pooled = pick(server);
    } catch (error) {
      finish(networkError(server.label, error));
      return noop;
    }
    // RFC 5452 §9.2: the id stays random; it only has to differ from the ids in flight on this
    // socket so that an answer names exactly one query.
    let id = query.id;
    while (pooled.pending.has(id)) id = randomUint16();
    let wire = query.wire;
    if (id !== query.id) {
      wire = Buffer.from(query.wire);
      wire.writeUInt16BE(id, 0);
    }
    const entry: Pending = { query: id === query.id ? query : { ...query, id, wire }, finish };
    pooled.pending.set(id, entry);
    pooled.used++;
    if (pooled.used >= maxQueries) retire(pooled);
    release = () => {
      if (pooled.pending.get(id) === entry) pooled.pending.delete(id);
      if (pooled.retired && pooled.pending.size === 0) destroy(pooled);
    };
    deadline = deadlines.add(ms, () => finish(new AttemptTimeout(server.label, ms)));
    transmit(pooled, wire, (error) => {
      // A socket that failed a send is not trusted with more queries.
      retire(pooled);
      finish(networkError(server.label, error));
    });
    return stop;
  }

  return {
    send,

    stats() {
      let open = 0;
      let draining = 0;
      let inFlight = 0;
      for (const group of groups.values()) {
        for (const pooled of group.all) {
          open++;
          if (pooled.retired) draining++;
          inFlight += pooled.pending.size;
        }
      }
      return { open, draining, inFlight, opened, closed: closedCount };
    },

    close() {
      poolClosed = true;
      const error = new UpstreamError('dns', 'the DNS socket pool was closed');
      for (const group of [...groups.values()]) {
        for (const pooled of [...group.all]) fail(pooled, error);
      }
      groups.clear();
    },
  };
}

/** The address as the kernel prints it (inet_ntop), e.g. `0:0:0:0:0:0:0:1` → `::1`. */
function kernelAddress(server: DnsServer): string {
  try {
    return new SocketAddress({
      address: server.host,
      family: server.family === 6 ? 'ipv6' : 'ipv4',
    }).address;
  } catch {
    return server.host;
  }
}

/**
 * Servers are IP literals and the socket binds to the wildcard address, so no name is ever
 * resolved: dgram's implicit `dns.lookup` is replaced by a literal check.
 */
function literalLookup(
  address: string,
  _family: unknown,
  callback: (error: Error | null, address: string, family: number) => void,
): void {
  const family = isIP(address);
  if (family === 0) callback(new Error(`${address} is not an IP address`), address, 0);
  else callback(null, address, family);
}

let defaultPool: UdpSocketPool | undefined;

/** The process-wide pool every resolver uses unless given its own. */
export function getDefaultUdpSocketPool(): UdpSocketPool {
  defaultPool ??= createUdpSocketPool();
  return defaultPool;
}

/**
 * Closes the process-wide pool (graceful shutdown); the next query opens a new one. Not needed
 * for the process to exit: pooled sockets are unref'd.
 */
export function closeDefaultUdpSocketPool(): void {
  defaultPool?.close();
  defaultPool = undefined;
}
