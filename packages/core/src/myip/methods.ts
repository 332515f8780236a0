/**
 * The DNS servers that tell a client its own address, and the setting that overrides them:
 * apart from `discover.ts`, so that reading the configuration loads no DNS client.
 * @module
 */
import { UpstreamError } from '../errors.js';

/** One way of asking DNS "what is my address?". */
export interface MyIpMethod {
  name: string;
  /** `ip` or `ip:port` (`[v6]:port`) of the server that answers with the client's address. */
  server: string;
  qname: string;
  type: 'A' | 'AAAA' | 'TXT';
}

/**
 * Both are answered by the authoritative server itself with the address the query came from,
 * so no recursive resolver may sit in between:
 * - OpenDNS: `myip.opendns.com A` at resolver1.opendns.com (208.67.222.222).
 * - Google: `o-o.myaddr.l.google.com TXT` at ns1.google.com (216.239.32.10).
 */
export const MYIP_METHODS: readonly MyIpMethod[] = [
  { name: 'opendns', server: '208.67.222.222', qname: 'myip.opendns.com', type: 'A' },
  { name: 'google', server: '216.239.32.10', qname: 'o-o.myaddr.l.google.com', type: 'TXT' },
];

/**
 * `NETDIAG_MYIP_SERVERS`: a comma list of `name=ip[:port]` (`opendns=127.0.0.1:5300`) or plain
 * `ip[:port]` entries (the methods' servers in order); unset or empty → the defaults.
 */
export function parseMyIpServers(value: string | undefined): MyIpMethod[] {
  const methods = MYIP_METHODS.map((m) => ({ ...m }));
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let position = 0;
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : undefined;
    const server = eq > 0 ? entry.slice(eq + 1).trim() : entry;
    const target = name ? methods.find((m) => m.name === name) : methods[position++];
    if (!target) {
      throw new UpstreamError(
        'myip',
        `NETDIAG_MYIP_SERVERS: unknown method "${name ?? entry}" (known: ${MYIP_METHODS.map((m) => m.name).join(', ')})`,
      );
    }
    target.server = server;
  }
  return methods;
}
