/**
 * Presentation (`dig +short`, BIND 9.18 lib/dns/rdata/generic/*.c) and structured values of the
 * DNSSEC, DANE, SSHFP, NAPTR and service-binding types, read from the rdata bytes themselves so
 * one parser serves the types dns-packet decodes (DS, RRSIG, …) and those it leaves raw (CDS,
 * CDNSKEY, NSEC3PARAM, SVCB, HTTPS).
 * @module
 */
import type { z } from 'zod';
import type { svcbValueSchema } from '../dns/schema.js';
import { quoteString, readWireName } from './resolver-present.js';
import {
  alpnIds,
  decodeSvcParams,
  ipv6Text,
  pairs,
  readSvcParams,
  svcParamKeyName,
} from './svcb.js';

/** The types this file presents. */
export const MODERN_TYPES: ReadonlySet<string> = new Set([
  'DS',
  'CDS',
  'DNSKEY',
  'CDNSKEY',
  'RRSIG',
  'NSEC',
  'NSEC3',
  'NSEC3PARAM',
  'TLSA',
  'SSHFP',
  'NAPTR',
  'SVCB',
  'HTTPS',
]);

export interface DsValue {
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Lower-case hex. */
  digest: string;
}
export interface DnskeyValue {
  flags: number;
  protocol: number;
  algorithm: number;
  /** Base64. */
  publicKey: string;
  /** RFC 4034 Appendix B key tag. */
  keyTag: number;
}
export interface RrsigValue {
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTtl: number;
  /** Seconds since the epoch (serial-number arithmetic is the validator's business). */
  expiration: number;
  inception: number;
  keyTag: number;
  /** Without trailing dot, lower case. */
  signerName: string;
  /** Base64. */
  signature: string;
}
export interface NsecValue {
  next: string;
  types: string[];
}
export interface Nsec3Value {
  hashAlgorithm: number;
  flags: number;
  iterations: number;
  /** Hex, `` when empty. */
  salt: string;
  /** Base32hex (RFC 4648 §7), upper case, no padding. */
  next: string;
  types: string[];
}
export interface Nsec3ParamValue {
  hashAlgorithm: number;
  flags: number;
  iterations: number;
  salt: string;
}
export interface TlsaValue {
  usage: number;
  selector: number;
  matchingType: number;
  /** Hex. */
  data: string;
}
export interface SshfpValue {
  algorithm: number;
  fingerprintType: number;
  fingerprint: string;
}
export interface NaptrValue {
  order: number;
  preference: number;
  flags: string;
  services: string;
  regexp: string;
  replacement: string;
}
/** A decoded HTTPS/SVCB record; a v1 DNS answer carries it as `svc_params`, so its schema is the type. */
export type SvcbValue = z.output<typeof svcbValueSchema>;

/**
 * IANA "Resource Record (RR) TYPEs" names that dig prints in NSEC/NSEC3 type bitmaps; others
 * print as `TYPE<N>` (RFC 3597 §5).
 */
const RR_NAMES: Readonly<Record<number, string>> = {
  1: 'A',
  2: 'NS',
  3: 'MD',
  4: 'MF',
  5: 'CNAME',
  6: 'SOA',
  7: 'MB',
  8: 'MG',
  9: 'MR',
  10: 'NULL',
  11: 'WKS',
  12: 'PTR',
  13: 'HINFO',
  14: 'MINFO',
  15: 'MX',
  16: 'TXT',
  17: 'RP',
  18: 'AFSDB',
  19: 'X25',
  20: 'ISDN',
  21: 'RT',
  22: 'NSAP',
  23: 'NSAP-PTR',
  24: 'SIG',
  25: 'KEY',
  26: 'PX',
  27: 'GPOS',
  28: 'AAAA',
  29: 'LOC',
  30: 'NXT',
  31: 'EID',
  32: 'NIMLOC',
  33: 'SRV',
  34: 'ATMA',
  35: 'NAPTR',
  36: 'KX',
  37: 'CERT',
  38: 'A6',
  39: 'DNAME',
  40: 'SINK',
  42: 'APL',
  43: 'DS',
  44: 'SSHFP',
  45: 'IPSECKEY',
  46: 'RRSIG',
  47: 'NSEC',
  48: 'DNSKEY',
  49: 'DHCID',
  50: 'NSEC3',
  51: 'NSEC3PARAM',
  52: 'TLSA',
  53: 'SMIMEA',
  55: 'HIP',
  56: 'NINFO',
  57: 'RKEY',
  58: 'TALINK',
  59: 'CDS',
  60: 'CDNSKEY',
  61: 'OPENPGPKEY',
  62: 'CSYNC',
  63: 'ZONEMD',
  64: 'SVCB',
  65: 'HTTPS',
  99: 'SPF',
  104: 'NID',
  105: 'L32',
  106: 'L64',
  107: 'LP',
  108: 'EUI48',
  109: 'EUI64',
  249: 'TKEY',
  250: 'TSIG',
  256: 'URI',
  257: 'CAA',
  258: 'AVC',
  259: 'DOA',
  260: 'AMTRELAY',
  261: 'RESINFO',
  32768: 'TA',
  32769: 'DLV',
};

/** A type code by name, as dig prints it. */
export function rrTypeName(code: number): string {
  return RR_NAMES[code] ?? `TYPE${code}`;
}

/**
 * BIND splits long base64 and hex fields with a space every 56 characters
 * (`dns_rdata_totext`: width 60 minus 2, rounded down to whole base64 quanta / hex octets).
 */
function split(text: string): string {
  return text.replace(/(.{56})(?=.)/g, '$1 ');
}

const hexUpper = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();
const bare = (name: string) => (name === '.' ? '' : name.replace(/\.$/, '').toLowerCase());

/** The type bitmap of NSEC and NSEC3 (RFC 4034 §4.1.2), in ascending order. */
export function readTypeBitmap(bytes: Uint8Array, offset: number): number[] {
  const codes: number[] = [];
  let at = offset;
  while (at + 2 <= bytes.length) {
    const window = bytes[at] as number;
    const length = bytes[at + 1] as number;
    at += 2;
    for (let i = 0; i < length; i++) {
      const octet = bytes[at + i] as number;
      for (let bit = 0; bit < 8; bit++) {
        if (octet & (0x80 >> bit)) codes.push(window * 256 + i * 8 + bit);
      }
    }
    at += length;
  }
  return codes;
}

/** RFC 4034 Appendix B: the key tag of a DNSKEY rdata (algorithm 1 has its own rule, unused). */
export function keyTag(rdata: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) {
    sum += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8;
  }
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** RFC 4648 §7 base32 with the extended hex alphabet, no padding (NSEC3 hashed names). */
export function base32hex(bytes: Uint8Array): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

/** RRSIG times as BIND prints them: YYYYMMDDHHMMSS in UTC (RFC 4034 §3.2). */
function rrsigTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** A character-string (RFC 1035 §3.3) at `at`: its bytes and the offset after it. */
function readString(bytes: Buffer, at: number): { value: Buffer; end: number } {
  const length = bytes[at] as number;
  return { value: bytes.subarray(at + 1, at + 1 + length), end: at + 1 + length };
}

/** `data` (dig +short) and `value` of one record of a type in `MODERN_TYPES`. */
export function presentModern(type: string, rdata: Uint8Array): { data: string; value: unknown } {
  const b = Buffer.from(rdata.buffer, rdata.byteOffset, rdata.byteLength);
  switch (type) {
    case 'DS':
    case 'CDS': {
      const value: DsValue = {
        keyTag: b.readUInt16BE(0),
        algorithm: b[2] as number,
        digestType: b[3] as number,
        digest: b.subarray(4).toString('hex'),
      };
      const text = `${value.keyTag} ${value.algorithm} ${value.digestType} ${split(hexUpper(b.subarray(4)))}`;
      return { data: text, value };
    }
    case 'DNSKEY':
    case 'CDNSKEY': {
      const value: DnskeyValue = {
        flags: b.readUInt16BE(0),
        protocol: b[2] as number,
        algorithm: b[3] as number,
        publicKey: b.subarray(4).toString('base64'),
        keyTag: keyTag(b),
      };
      const text = `${value.flags} ${value.protocol} ${value.algorithm} ${split(value.publicKey)}`;
      return { data: text, value };
    }
    case 'RRSIG': {
      const signer = readWireName(b, 18);
      const value: RrsigValue = {
        typeCovered: rrTypeName(b.readUInt16BE(0)),
        algorithm: b[2] as number,
        labels: b[3] as number,
        originalTtl: b.readUInt32BE(4),
        expiration: b.readUInt32BE(8),
        inception: b.readUInt32BE(12),
        keyTag: b.readUInt16BE(16),
        signerName: bare(signer.text),
        signature: b.subarray(signer.end).toString('base64'),
      };
      const text = [
        value.typeCovered,
        value.algorithm,
        value.labels,
        value.originalTtl,
        rrsigTime(value.expiration),
        rrsigTime(value.inception),
        value.keyTag,
        signer.text,
        split(value.signature),
      ].join(' ');
      return { data: text, value };
    }
    case 'NSEC': {
      const next = readWireName(b, 0);
      const types = readTypeBitmap(b, next.end).map(rrTypeName);
      const value: NsecValue = { next: bare(next.text), types };
      return { data: [next.text, ...types].join(' '), value };
    }
    case 'NSEC3': {
      const saltLength = b[4] as number;
      const salt = b.subarray(5, 5 + saltLength);
      const hashLength = b[5 + saltLength] as number;
      const hashStart = 6 + saltLength;
      const next = base32hex(b.subarray(hashStart, hashStart + hashLength));
      const types = readTypeBitmap(b, hashStart + hashLength).map(rrTypeName);
      const value: Nsec3Value = {
        hashAlgorithm: b[0] as number,
        flags: b[1] as number,
        iterations: b.readUInt16BE(2),
        salt: salt.toString('hex'),
        next,
        types,
      };
      const saltText = saltLength === 0 ? '-' : hexUpper(salt);
      const head = `${value.hashAlgorithm} ${value.flags} ${value.iterations} ${saltText} ${next}`;
      return { data: [head, ...types].join(' '), value };
    }
    case 'NSEC3PARAM': {
      const saltLength = b[4] as number;
      const salt = b.subarray(5, 5 + saltLength);
      const value: Nsec3ParamValue = {
        hashAlgorithm: b[0] as number,
        flags: b[1] as number,
        iterations: b.readUInt16BE(2),
        salt: salt.toString('hex'),
      };
      const saltText = saltLength === 0 ? '-' : hexUpper(salt);
      return {
        data: `${value.hashAlgorithm} ${value.flags} ${value.iterations} ${saltText}`,
        value,
      };
    }
    case 'TLSA': {
      const value: TlsaValue = {
        usage: b[0] as number,
        selector: b[1] as number,
        matchingType: b[2] as number,
        data: b.subarray(3).toString('hex'),
      };
      const text = `${value.usage} ${value.selector} ${value.matchingType} ${split(hexUpper(b.subarray(3)))}`;
      return { data: text, value };
    }
    case 'SSHFP': {
      const value: SshfpValue = {
        algorithm: b[0] as number,
        fingerprintType: b[1] as number,
        fingerprint: b.subarray(2).toString('hex'),
      };
      const text = `${value.algorithm} ${value.fingerprintType} ${split(hexUpper(b.subarray(2)))}`;
      return { data: text, value };
    }
    case 'NAPTR': {
      const flags = readString(b, 4);
      const services = readString(b, flags.end);
      const regexp = readString(b, services.end);
      const replacement = readWireName(b, regexp.end);
      const value: NaptrValue = {
        order: b.readUInt16BE(0),
        preference: b.readUInt16BE(2),
        flags: flags.value.toString('utf8'),
        services: services.value.toString('utf8'),
        regexp: regexp.value.toString('utf8'),
        replacement: bare(replacement.text),
      };
      const strings = [flags, services, regexp].map((s) => quoteString(s.value));
      const text = [value.order, value.preference, ...strings, replacement.text].join(' ');
      return { data: text, value };
    }
    case 'SVCB':
    case 'HTTPS': {
      const target = readWireName(b, 2);
      const raw = readSvcParams(b, target.end);
      const value: SvcbValue = {
        priority: b.readUInt16BE(0),
        target: bare(target.text),
        params: decodeSvcParams(raw),
      };
      const params = raw.map(({ key, value: v }) => presentSvcParam(key, Buffer.from(v)));
      return { data: [value.priority, target.text, ...params].join(' '), value };
    }
    default:
      throw new RangeError(`no presentation for ${type}`);
  }
}

/**
 * One SvcParam as BIND 9.18 prints it (lib/dns/rdata/in_1/svcb_64.c): `key=value`, the ALPN list
 * and unknown values quoted, a comma inside an ALPN id escaped (RFC 9460 Appendix A.1).
 */
function presentSvcParam(key: number, value: Buffer): string {
  const name = svcParamKeyName(key);
  switch (key) {
    case 0:
      return `${name}=${pairs(value, 2)
        .map((k) => svcParamKeyName(k.readUInt16BE(0)))
        .join(',')}`;
    case 1: {
      const ids = alpnIds(value).map((id) => quoteString(id).slice(1, -1).replace(/,/g, '\\\\,'));
      return `${name}="${ids.join(',')}"`;
    }
    case 2:
      return name;
    case 3:
      return `${name}=${value.readUInt16BE(0)}`;
    case 4:
      return `${name}=${pairs(value, 4)
        .map((a) => [...a].join('.'))
        .join(',')}`;
    case 5:
      return `${name}=${value.toString('base64')}`;
    case 6:
      return `${name}=${pairs(value, 16).map(ipv6Text).join(',')}`;
    default:
      return value.length === 0 ? name : `${name}=${quoteString(value)}`;
  }
}
