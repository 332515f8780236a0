/**
 * dns-packet answers → `DnsRecord`s: the type code, the structured value and the `dig +short`
 * presentation string. Values are plain JSON (no Buffers) so every `Cache` store can hold them.
 * @module
 */
import * as packet from 'dns-packet';
import type { CaaValue, DnsRecord, MxValue, SoaValue, SrvValue } from './dns-types.js';
import { presentIPv6, presentName, presentUnknown, quoteString } from './resolver-present.js';

/** Type codes from the IANA "Resource Record (RR) TYPEs" registry (RFC 6895 §3.1). */
export const TYPE_CODES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  ANY: 255,
  CAA: 257,
};

/** Name and code of a type as dns-packet names it (`UNKNOWN_65` → `TYPE65`, RFC 3597 §5). */
export function typeOf(name: string): { type: string; typeCode: number } {
  const unknown = /^UNKNOWN_(\d+)$/.exec(name);
  if (unknown) return { type: `TYPE${unknown[1]}`, typeCode: Number(unknown[1]) };
  return { type: name, typeCode: TYPE_CODES[name] ?? 0 };
}

/** An owner name lower-case without its trailing dot (the root is ``). */
export function ownerName(name: string): string {
  const lower = name.toLowerCase();
  return lower === '.' ? '' : lower.replace(/\.$/, '');
}

const bare = (name: string) => (name === '.' ? '' : name.replace(/\.$/, ''));

type Decoded = { type: string; name: string; ttl?: number; data?: unknown };

/** Converts one decoded resource record; `undefined` for OPT pseudo-records. */
export function toDnsRecord(answer: Decoded): DnsRecord | undefined {
  if (answer.type === 'OPT') return undefined;
  const { type, typeCode } = typeOf(answer.type);
  const base = { name: ownerName(answer.name), type, typeCode, ttl: answer.ttl ?? 0 };
  const { data, value } = present(answer.type, answer.data);
  return { ...base, data, value };
}

function present(type: string, raw: unknown): { data: string; value: DnsRecord['value'] } {
  switch (type) {
    case 'A':
      return { data: raw as string, value: raw as string };
    case 'AAAA': {
      const text = presentIPv6(raw as string);
      return { data: text, value: text };
    }
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return { data: presentName(raw as string), value: bare(raw as string) };
    case 'MX': {
      const mx = raw as packet.MxData;
      const value: MxValue = { preference: mx.preference ?? 0, exchange: bare(mx.exchange) };
      return { data: `${value.preference} ${presentName(mx.exchange)}`, value };
    }
    case 'TXT': {
      const strings = (Array.isArray(raw) ? raw : [raw]).map((s) =>
        typeof s === 'string' ? Buffer.from(s, 'utf8') : (s as Buffer),
      );
      return {
        data: strings.map(quoteString).join(' '),
        value: strings.map((s) => s.toString('utf8')),
      };
    }
    case 'SOA': {
      const soa = raw as packet.SoaData;
      const value: SoaValue = {
        mname: bare(soa.mname),
        rname: bare(soa.rname),
        serial: soa.serial ?? 0,
        refresh: soa.refresh ?? 0,
        retry: soa.retry ?? 0,
        expire: soa.expire ?? 0,
        minimum: soa.minimum ?? 0,
      };
      const numbers = [value.serial, value.refresh, value.retry, value.expire, value.minimum];
      return {
        data: `${presentName(soa.mname)} ${presentName(soa.rname)} ${numbers.join(' ')}`,
        value,
      };
    }
    case 'SRV': {
      const srv = raw as packet.SrvData;
      const value: SrvValue = {
        priority: srv.priority ?? 0,
        weight: srv.weight ?? 0,
        port: srv.port,
        target: bare(srv.target),
      };
      return {
        data: `${value.priority} ${value.weight} ${value.port} ${presentName(srv.target)}`,
        value,
      };
    }
    case 'CAA': {
      const caa = raw as packet.CaaData;
      const value: CaaValue = { flags: caa.flags ?? 0, tag: caa.tag, value: caa.value };
      return {
        data: `${value.flags} ${value.tag} ${quoteString(Buffer.from(caa.value, 'utf8'))}`,
        value,
      };
    }
    default:
      return presentOther(type, raw);
  }
}

/**
 * Types netdiag never asks for but that may ride along (RRSIG, DNAME targets, …): the RFC 3597
 * generic form of their rdata, re-encoded by dns-packet when it decoded them into an object.
 */
function presentOther(type: string, raw: unknown): { data: string; value: string } {
  let rdata: Uint8Array;
  if (Buffer.isBuffer(raw)) {
    rdata = raw;
  } else {
    try {
      const codec = (
        packet as unknown as { record(t: string): { encode(d: unknown): Buffer } }
      ).record(type);
      rdata = codec.encode(raw).subarray(2);
    } catch {
      rdata = new Uint8Array();
    }
  }
  const hex = Buffer.from(rdata).toString('hex');
  return { data: presentUnknown(rdata), value: hex };
}
