/**
 * This machine's public address from DNS alone, without any web API: authoritative servers
 * that answer a fixed name with the address the query came from. Asked with core's own DNS
 * client (no cache, one try per method), never through node:dns or getaddrinfo.
 * @module
 */
import { isIP } from 'node:net';
import { UpstreamError } from '../errors.js';
import { parseIp } from '../net/ip.js';
import { createResolver } from '../net/resolver.js';
import { MYIP_METHODS, type MyIpMethod } from './methods.js';

export interface DiscoverPublicIpOptions {
  /** Abort the discovery; the function rejects with `AbortedError`. */
  signal?: AbortSignal;
  /** Time one method gets, in ms (one try, then the next method). @default 3000 */
  timeout?: number;
  /** The methods, asked in order. @default MYIP_METHODS */
  methods?: readonly MyIpMethod[];
}

/**
 * This machine's public address: the first method that answers with an address wins.
 * Offline (no method answers) → `UpstreamError('myip')` naming every failure (CLI exit 3).
 */
export async function discoverPublicIp(options: DiscoverPublicIpOptions = {}): Promise<string> {
  const methods = options.methods ?? MYIP_METHODS;
  const timeout = options.timeout ?? 3000;
  const failures: string[] = [];
  for (const method of methods) {
    try {
      const address = await askMethod(method, timeout, options.signal);
      if (address) return address;
      failures.push(`${method.name}: no address in the answer`);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      failures.push(`${method.name}: ${bare(error as Error)}`);
    }
  }
  throw new UpstreamError(
    'myip',
    `cannot find this machine's public address (are you offline?): ${failures.join('; ')}`,
  );
}

async function askMethod(
  method: MyIpMethod,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  // No retry (a fallback method follows), no cache (the answer depends on the query's path).
  const resolver = createResolver({
    servers: [method.server],
    cache: false,
    tries: 1,
    attemptTimeout: timeout,
    timeout,
  });
  const response = await resolver.query(method.qname, method.type, {
    timeout,
    ...(signal ? { signal } : {}),
  });
  const values = response.answers.filter((r) => r.type === method.type).map((r) => r.value);
  const raw =
    method.type === 'TXT'
      ? // ns1.google.com answers the client address, plus "edns0-client-subnet …" when ECS is sent.
        values
          .map((chunks) => (chunks as string[]).join('').trim())
          .find((text) => isIP(text) !== 0)
      : (values[0] as string | undefined);
  return raw ? parseIp(raw.trim())?.address : undefined;
}

/** A netdiag error's message without its `[netdiag] [upstream]` prefix. */
function bare(error: Error): string {
  return String(error?.message ?? error).replace(/^\[netdiag\] \[[^\]]*\] /, '');
}
