/**
 * dns-packet answers → `DnsRecord`s: the type code, the structured value and the `dig +short`
 * presentation string. Values are plain JSON (no Buffers) so every `Cache` store can hold them.
 * @module
 */
import type * as packet from 'dns-packet';
import { lazyRequire } from '../lazy-require.js';
import type {
  CaaValue,
  DnsRecord,
  ExtendedDnsError,
  MxValue,
  SoaValue,
  SrvValue,
} from './dns-types.js';
import {
  presentIPv6,
  presentName,
  presentUnknown,
  quoteString,
  TYPE_CODES,
  TYPE_NAMES,
} from './resolver-present.js';
import { MODERN_TYPES, presentModern } from './resolver-present-modern.js';

export { TYPE_CODES } from './resolver-present.js';

/** dns-packet's per-type codecs (`record`, which its types leave out). */
const recordCodecs = lazyRequire<{ record(t: string): { encode(d: unknown): Buffer } }>(
  'dns-packet',
);

/**
 * Name and code of a type as dns-packet names it: `UNKNOWN_65` is `HTTPS` when the registry
 * above names it (dns-packet 5.6 has no SVCB/HTTPS), else `TYPE65` (RFC 3597 §5).
 */
export function typeOf(name: string): { type: string; typeCode: number } {
  const unknown = /^UNKNOWN_(\d+)$/.exec(name);
  if (unknown) {
    const code = Number(unknown[1]);
    return { type: TYPE_NAMES.get(code) ?? `TYPE${code}`, typeCode: code };
  }
  return { type: name, typeCode: TYPE_CODES[name] ?? 0 };
}

/** Types dns-packet (5.6) cannot name: it reads and writes them as `UNKNOWN_<code>`. */
const PACKET_UNNAMED = new Set(['SVCB', 'HTTPS']);

/** The type name to hand to dns-packet for a question of `type`. */
export function packetTypeName(type: string): string {
  return PACKET_UNNAMED.has(type) ? `UNKNOWN_${TYPE_CODES[type]}` : type;
}

const bare = (name: string) => (name === '.' ? '' : name.replace(/\.$/, ''));

type Decoded = { type: string; name: string; ttl?: number; data?: unknown };

/**
 * Converts one decoded resource record; `undefined` for OPT pseudo-records. With `rdata`, the
 * record also carries its rdata in uncompressed wire form (hex), for DNSSEC validation.
 */
export function toDnsRecord(
  answer: Decoded,
  options: { rdata?: boolean } = {},
): DnsRecord | undefined {
  if (answer.type === 'OPT') return undefined;
  const { type, typeCode } = typeOf(answer.type);
  const { data, value } = MODERN_TYPES.has(type)
    ? presentModernOrGeneric(answer.type, type, answer.data)
    : present(answer.type, answer.data);
  const record: DnsRecord = {
    name: bare(answer.name).toLowerCase(),
    type,
    typeCode,
    ttl: answer.ttl ?? 0,
    data,
    value,
  };
  if (options.rdata) record.rdata = Buffer.from(rdataOf(answer.type, answer.data)).toString('hex');
  return record;
}

/**
 * A modern type from its rdata; malformed rdata (a broken or hostile server) falls back to the
 * RFC 3597 generic form rather than failing the whole answer.
 */
function presentModernOrGeneric(
  packetType: string,
  type: string,
  raw: unknown,
): { data: string; value: DnsRecord['value'] } {
  try {
    return presentModern(type, rdataOf(packetType, raw));
  } catch {
    return presentOther(packetType, raw);
  }
}

/**
 * The rdata of a decoded record: as received when dns-packet left it a Buffer, else re-encoded by
 * its codec, which never compresses names and keeps their case: the uncompressed wire form.
 */
export function rdataOf(packetType: string, raw: unknown): Uint8Array {
  if (Buffer.isBuffer(raw)) return raw;
  const codec = recordCodecs().record(packetType);
  // The codec writes the two-byte RDLENGTH first.
  return codec.encode(raw).subarray(2);
}

/**
 * INFO-CODE names of the IANA "Extended DNS Error Codes" registry (RFC 8914 §5.2 and later
 * registrations), https://www.iana.org/assignments/dns-parameters/dns-parameters.xhtml#extended-dns-error-codes
 */
const EDE_NAMES: readonly string[] = [
  'Other Error',
  'Unsupported DNSKEY Algorithm',
  'Unsupported DS Digest Type',
  'Stale Answer',
  'Forged Answer',
  'DNSSEC Indeterminate',
  'DNSSEC Bogus',
  'Signature Expired',
  'Signature Not Yet Valid',
  'DNSKEY Missing',
  'RRSIGs Missing',
  'No Zone Key Bit Set',
  'NSEC Missing',
  'Cached Error',
  'Not Ready',
  'Blocked',
  'Censored',
  'Filtered',
  'Prohibited',
  'Stale NXDomain Answer',
  'Not Authoritative',
  'Not Supported',
  'No Reachable Authority',
  'Network Error',
  'Invalid Data',
  'Signature Expired before Valid',
  'Too Early',
  'Unsupported NSEC3 Iterations Value',
  'Unable to conform to policy',
  'Synthesized',
  'Invalid Query Type',
];

/** EDNS option code of Extended DNS Errors (RFC 8914 §2). */
const EDE_OPTION = 15;

/** The Extended DNS Errors in a message's additional section (its OPT record), in order. */
export function extendedDnsErrors(additionals: readonly unknown[] | undefined): ExtendedDnsError[] {
  const errors: ExtendedDnsError[] = [];
  for (const record of additionals ?? []) {
    const opt = record as { type?: string; options?: { code?: number; data?: Buffer }[] };
    if (opt.type !== 'OPT') continue;
    for (const option of opt.options ?? []) {
      // RFC 8914 §2: INFO-CODE (2 octets) then EXTRA-TEXT; shorter options are malformed.
      if (option.code !== EDE_OPTION || !option.data || option.data.length < 2) continue;
      const code = option.data.readUInt16BE(0);
      // EXTRA-TEXT is UTF-8 and "SHOULD NOT" be NUL-terminated (§2); some servers do anyway.
      const text = option.data.subarray(2).toString('utf8').replace(/\0+$/, '');
      errors.push({ code, name: EDE_NAMES[code] ?? 'Unknown', ...(text ? { text } : {}) });
    }
  }
  return errors;
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
      const data = `${presentName(soa.mname)} ${presentName(soa.rname)} ${numbers.join(' ')}`;
      return { data, value };
    }
    case 'SRV': {
      const srv = raw as packet.SrvData;
      const value: SrvValue = {
        priority: srv.priority ?? 0,
        weight: srv.weight ?? 0,
        port: srv.port,
        target: bare(srv.target),
      };
      const data = `${value.priority} ${value.weight} ${value.port} ${presentName(srv.target)}`;
      return { data, value };
    }
    case 'CAA': {
      const caa = raw as packet.CaaData;
      const value: CaaValue = { flags: caa.flags ?? 0, tag: caa.tag, value: caa.value };
      const data = `${value.flags} ${value.tag} ${quoteString(Buffer.from(caa.value, 'utf8'))}`;
      return { data, value };
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
  try {
    rdata = rdataOf(type, raw);
  } catch {
    rdata = new Uint8Array();
  }
  const hex = Buffer.from(rdata).toString('hex');
  return { data: presentUnknown(rdata), value: hex };
}
