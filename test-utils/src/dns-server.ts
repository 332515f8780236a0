/**
 * A loopback DNS server for tests and benchmarks: real DNS wire format (dns-packet) over UDP
 * and TCP on the same port, zone data from a plain object, and switches to delay, drop,
 * truncate, refuse or SERVFAIL on demand, or to answer with a spoofed id or question.
 * @module
 */
import dgram from 'node:dgram';
import net from 'node:net';
import * as packet from 'dns-packet';

/** Record data in dns-packet's shapes, keyed by type. */
export interface ZoneRecords {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  NS?: string[];
  PTR?: string[];
  MX?: { preference: number; exchange: string }[];
  TXT?: (string | string[])[];
  SOA?: {
    mname: string;
    rname: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minimum: number;
  };
  SRV?: { priority: number; weight: number; port: number; target: string }[];
  CAA?: { flags: number; tag: string; value: string }[];
  /** TTL of every record at this name. @default 300 */
  ttl?: number;
}

/** Owner name (no trailing dot, `*.` wildcards allowed) → records. */
export type Zone = Record<string, ZoneRecords>;

export type QueryAction =
  | 'drop'
  | 'servfail'
  | 'refused'
  /** TC bit set, no records, on UDP and on TCP (return it only for `udp` to allow the retry). */
  | 'truncate'
  | 'spoof-id'
  | 'spoof-question'
  | { delayMs: number }
  | undefined;

export interface QueryInfo {
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
}

export interface DnsServerOptions {
  zone?: Zone;
  /** Loopback address to bind. @default '127.0.0.1' */
  host?: string;
  /** Delay of every answer in ms. @default 0 */
  delayMs?: number;
  /** Decides per query what to do; `undefined` answers normally. */
  onQuery?: (query: QueryInfo) => QueryAction;
}

export interface DnsTestServer {
  host: string;
  port: number;
  /** `host:port`, ready for NETDIAG_DNS_SERVERS (`[::1]:port` for IPv6). */
  address: string;
  zone: Zone;
  /** Every question received, in order. */
  queries: QueryInfo[];
  options: DnsServerOptions;
  close(): Promise<void>;
}

const DEFAULT_SOA = {
  mname: 'ns1.fixture.test',
  rname: 'hostmaster.fixture.test',
  serial: 2026112101,
  refresh: 3600,
  retry: 600,
  expire: 604800,
  minimum: 60,
};

export async function startDnsServer(options: DnsServerOptions = {}): Promise<DnsTestServer> {
  const host = options.host ?? '127.0.0.1';
  const zone = options.zone ?? {};
  const queries: QueryInfo[] = [];
  const state = { options, zone, queries };

  for (let attempt = 0; ; attempt++) {
    const udp = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, host, () => resolve());
    });
    const port = udp.address().port;
    const tcp = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, host, () => resolve(true));
    });
    if (!bound) {
      udp.close();
      if (attempt > 20) throw new Error('could not bind a DNS fixture on UDP and TCP');
      continue;
    }
    const sockets = new Set<net.Socket>();
    udp.on('message', (msg, rinfo) => {
      void respond(state, msg, 'udp').then((out) => {
        for (const buf of out) udp.send(buf, rinfo.port, rinfo.address);
      });
    });
    tcp.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 2) {
          const length = pending.readUInt16BE(0);
          if (pending.length < 2 + length) break;
          const msg = pending.subarray(2, 2 + length);
          pending = pending.subarray(2 + length);
          void respond(state, msg, 'tcp').then((out) => {
            for (const buf of out) {
              const framed = Buffer.alloc(2 + buf.length);
              framed.writeUInt16BE(buf.length, 0);
              buf.copy(framed, 2);
              if (!socket.destroyed) socket.write(framed);
            }
          });
        }
      });
    });
    return {
      host,
      port,
      address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
      zone,
      queries,
      options,
      close: async () => {
        for (const s of sockets) s.destroy();
        await Promise.all([
          new Promise<void>((r) => udp.close(() => r())),
          new Promise<void>((r) => tcp.close(() => r())),
        ]);
      },
    };
  }
}

interface State {
  options: DnsServerOptions;
  zone: Zone;
  queries: QueryInfo[];
}

async function respond(state: State, msg: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer[]> {
  let query: packet.Packet;
  try {
    query = packet.decode(msg);
  } catch {
    return [];
  }
  const question = query.questions?.[0];
  if (!question) return [];
  const info: QueryInfo = { name: question.name.toLowerCase(), type: question.type, transport };
  state.queries.push(info);
  const action = state.options.onQuery?.(info);
  const delay = (typeof action === 'object' ? action.delayMs : 0) + (state.options.delayMs ?? 0);
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  if (action === 'drop') return [];

  const opt = query.additionals?.find((a) => a.type === 'OPT') as
    | { udpPayloadSize?: number }
    | undefined;
  const base = {
    id: query.id ?? 0,
    type: 'response' as const,
    flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE,
    questions: [question],
    additionals: (opt ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232 }] : []) as packet.Answer[],
  };
  if (action === 'servfail' || action === 'refused') {
    const rcode = action === 'servfail' ? 2 : 5;
    return [packet.encode({ ...base, flags: base.flags | rcode, answers: [] } as packet.Packet)];
  }
  const { rcode, answers, authorities } = lookup(state.zone, info.name, question.type);
  const reply = {
    ...base,
    flags: base.flags | packet.AUTHORITATIVE_ANSWER | rcode,
    answers,
    authorities,
  } as packet.Packet;
  let out = packet.encode(reply);
  const limit = opt ? Math.max(512, opt.udpPayloadSize ?? 512) : 512;
  // 'truncate' sets TC (and drops the records) on whichever transport it is returned for, so a
  // test can truncate UDP only (filter on `transport`) or both; size truncation is UDP only.
  if (action === 'truncate' || (transport === 'udp' && out.length > limit)) {
    out = packet.encode({
      ...reply,
      flags: (reply.flags ?? 0) | packet.TRUNCATED_RESPONSE,
      answers: [],
      authorities: [],
    } as packet.Packet);
  }
  if (action === 'spoof-id' || action === 'spoof-question') {
    // A forged answer arrives first; the genuine one follows 20 ms later.
    const forged =
      action === 'spoof-id'
        ? { ...reply, id: ((reply.id ?? 0) + 1) & 0xffff }
        : { ...reply, questions: [{ ...question, name: `evil.${question.name}` }] };
    const bogus = packet.encode({
      ...forged,
      answers: [{ type: 'A', name: question.name, ttl: 60, data: '6.6.6.6' }],
    } as packet.Packet);
    await new Promise((r) => setTimeout(r, 0));
    return [bogus, ...(await new Promise<Buffer[]>((r) => setTimeout(() => r([out]), 20)))];
  }
  return [out];
}

function findNode(zone: Zone, name: string): ZoneRecords | undefined {
  const exact = zone[name];
  if (exact) return exact;
  const labels = name.split('.');
  for (let i = 1; i < labels.length; i++) {
    const wildcard = zone[`*.${labels.slice(i).join('.')}`];
    if (wildcard) return wildcard;
  }
  return undefined;
}

function soaFor(zone: Zone, name: string): packet.Answer {
  const labels = name.split('.');
  for (let i = 0; i < labels.length; i++) {
    const apex = labels.slice(i).join('.');
    const soa = zone[apex]?.SOA;
    if (soa)
      return { type: 'SOA', name: apex, ttl: zone[apex]?.ttl ?? 300, data: soa } as packet.Answer;
  }
  return {
    type: 'SOA',
    name: labels.slice(-2).join('.'),
    ttl: 300,
    data: DEFAULT_SOA,
  } as packet.Answer;
}

function lookup(
  zone: Zone,
  qname: string,
  qtype: string,
): { rcode: number; answers: packet.Answer[]; authorities: packet.Answer[] } {
  const answers: packet.Answer[] = [];
  let name = qname;
  for (let hops = 0; hops < 10; hops++) {
    const node = findNode(zone, name);
    if (!node) {
      // NXDOMAIN only when the original name is absent; a dangling CNAME target is NOERROR.
      return { rcode: answers.length ? 0 : 3, answers, authorities: [soaFor(zone, name)] };
    }
    const ttl = node.ttl ?? 300;
    if (node.CNAME && qtype !== 'CNAME') {
      answers.push({ type: 'CNAME', name, ttl, data: node.CNAME } as packet.Answer);
      name = node.CNAME.toLowerCase().replace(/\.$/, '');
      continue;
    }
    const records = recordsOf(node, qtype, name, ttl);
    answers.push(...records);
    return {
      rcode: 0,
      answers,
      authorities: records.length === 0 ? [soaFor(zone, name)] : [],
    };
  }
  return { rcode: 2, answers: [], authorities: [] };
}

function recordsOf(node: ZoneRecords, type: string, name: string, ttl: number): packet.Answer[] {
  const value = (node as Record<string, unknown>)[type];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((data) => ({ type, name, ttl, data }) as packet.Answer);
}
