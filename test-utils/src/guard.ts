/**
 * The global network guard (CONTRACT §7). Loaded as a vitest setup file for every project and
 * by the benchmarks: any TCP/TLS connect, UDP send or DNS query to an address outside
 * 127.0.0.0/8 and ::1 throws at once and is recorded, and the current test then fails in
 * `afterEach` even if the code under test swallowed the exception.
 * @module
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

const violations: string[] = [];

/** Loopback only: 127.0.0.0/8, ::1 and their IPv4-mapped forms, plus the name localhost. */
export function isLoopback(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (h.startsWith('::ffff:')) h = h.slice(7);
  return net.isIPv4(h) && h.startsWith('127.');
}

function block(what: string): never {
  const message = `[netdiag test guard] blocked ${what}: tests may only reach 127.0.0.0/8 and ::1`;
  violations.push(message);
  throw new Error(message);
}

/** Violations since the last call; clears the list. */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

let installed = false;

interface ConnectOpts {
  host?: string;
  path?: string;
  lookup?: net.LookupFunction;
}

/** Wraps a connect `lookup` so that an address outside loopback fails the connect. */
function checkedLookup(lookup: net.LookupFunction): net.LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const outside = error ? undefined : list.find((a) => !isLoopback(a));
      if (outside === undefined) return callback(error, address, family);
      try {
        block(`TCP connect to ${hostname} (${outside})`);
      } catch (blocked) {
        callback(blocked as NodeJS.ErrnoException, '');
      }
    });
}

/** Patches node:net, node:dgram and node:dns. Idempotent. */
export function installNetworkGuard(): void {
  if (installed) return;
  installed = true;

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const [first, second] = args;
    let host: string | undefined;
    let path: string | undefined;
    let opts: ConnectOpts | undefined;
    if (typeof first === 'object' && first !== null && !Array.isArray(first)) {
      opts = first as ConnectOpts;
    } else if (Array.isArray(first)) {
      opts = first[0] as ConnectOpts | undefined;
    } else if (typeof first === 'string' && !/^\d+$/.test(first)) {
      path = first;
    } else {
      host = typeof second === 'string' ? second : 'localhost';
    }
    if (opts || Array.isArray(first)) {
      host = opts?.host ?? 'localhost';
      path = opts?.path;
    }
    // A name with a custom `lookup` (e.g. resolved through netdiag's own DNS client): the
    // addresses that lookup returns are checked instead of the name.
    const lookup = opts?.lookup;
    if (path === undefined && typeof lookup === 'function' && host && net.isIP(host) === 0) {
      const checked = { ...opts, lookup: checkedLookup(lookup) };
      if (Array.isArray(first)) first[0] = checked;
      else args[0] = checked;
    } else if (path === undefined && host !== undefined && !isLoopback(host)) {
      block(`TCP connect to ${host}`);
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(this: dgram.Socket, ...args: unknown[]) {
    // send(msg, [offset, length,] port, address, cb): the address is the first string after
    // the port; on a connected socket it is absent and connect() was already checked.
    const address = args.find((a, i) => i > 0 && typeof a === 'string') as string | undefined;
    if (address !== undefined && !isLoopback(address)) block(`UDP send to ${address}`);
    return (send as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.send;

  const udpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function guardedUdpConnect(
    this: dgram.Socket,
    ...args: unknown[]
  ) {
    const address = typeof args[1] === 'string' ? args[1] : 'localhost';
    if (!isLoopback(address)) block(`UDP connect to ${address}`);
    return (udpConnect as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.connect;

  // getaddrinfo may consult a resolver on the network: only loopback names are allowed.
  const lookup = dns.lookup;
  const guardedLookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname)) block(`DNS lookup of ${hostname}`);
    return (lookup as (...a: unknown[]) => void).call(dns, hostname, ...rest);
  };
  (dns as { lookup: unknown }).lookup = guardedLookup;
  const promisesLookup = dns.promises.lookup;
  (dns.promises as { lookup: unknown }).lookup = (hostname: string, ...rest: unknown[]) => {
    if (!isLoopback(hostname)) block(`DNS lookup of ${hostname}`);
    return (promisesLookup as (...a: unknown[]) => Promise<unknown>).call(
      dns.promises,
      hostname,
      ...rest,
    );
  };

  // c-ares resolvers send their own UDP packets, invisible to dgram: check their servers.
  const guardResolver = (proto: object, serversOf: (self: unknown) => string[]) => {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (!/^(resolve|reverse)/.test(key)) continue;
      const original = (proto as Record<string, unknown>)[key];
      if (typeof original !== 'function') continue;
      (proto as Record<string, unknown>)[key] = function guardedResolve(
        this: unknown,
        ...args: unknown[]
      ) {
        for (const server of serversOf(this)) {
          const host = server.replace(/^\[?([^\]]*?)\]?(:\d+)?$/, '$1');
          if (!isLoopback(host)) block(`DNS query to ${server}`);
        }
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  };
  guardResolver(dns.Resolver.prototype, (self) => (self as dns.Resolver).getServers());
  guardResolver(dns.promises.Resolver.prototype, (self) =>
    (self as dns.promises.Resolver).getServers(),
  );
  for (const key of Object.keys(dns.promises)) {
    if (!/^(resolve|reverse)/.test(key)) continue;
    const original = (dns.promises as unknown as Record<string, (...a: unknown[]) => unknown>)[key];
    if (typeof original !== 'function') continue;
    (dns.promises as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      for (const server of dns.getServers()) {
        const host = server.replace(/^\[?([^\]]*?)\]?(:\d+)?$/, '$1');
        if (!isLoopback(host)) block(`DNS query to ${server}`);
      }
      return original.apply(dns.promises, args);
    };
  }
  for (const key of Object.keys(dns)) {
    if (!/^(resolve|reverse)/.test(key)) continue;
    const original = (dns as unknown as Record<string, (...a: unknown[]) => unknown>)[key];
    if (typeof original !== 'function') continue;
    (dns as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      for (const server of dns.getServers()) {
        const host = server.replace(/^\[?([^\]]*?)\]?(:\d+)?$/, '$1');
        if (!isLoopback(host)) block(`DNS query to ${server}`);
      }
      return original.apply(dns, args);
    };
  }
}
