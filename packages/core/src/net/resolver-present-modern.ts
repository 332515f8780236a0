/**
 * Presentation (`dig +short`, BIND 9.18 lib/dns/rdata/generic/*.c) and structured values of the
 * DNSSEC, DANE, SSHFP, NAPTR and service-binding types, read from the rdata bytes themselves so
 * one parser serves the types dns-packet decodes (DS, RRSIG, …) and those it leaves raw (CDS,
 * CDNSKEY, NSEC3PARAM, SVCB, HTTPS).
 * @module
 */
import type { z } from 'zod';
import { DNS_TYPES_V1 } from '../dns/record-types.js';
import type { svcbValueSchema } from '../dns/schema.js';
import { quoteString, readWireName, rrTypeName } from './resolver-present.js';
import { readSvcParams } from './svcb.js';

/** The types this file presents: those `DNS_TYPES_V1` adds after SPEC §4's ten (issue 19). */
export const MODERN_TYPES: ReadonlySet<string> = new Set(
  DNS_TYPES_V1.slice(DNS_TYPES_V1.indexOf('HTTPS')),
);

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
  const sum = rdata.reduce((total, byte, i) => total + (i & 1 ? byte : byte << 8), 0);
  return (sum + ((sum >> 16) & 0xffff)) & 0xffff;
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
  const shown = (value: unknown, fields: unknown[]) => ({
    data: fields.map(String).join(' '),
    value,
  });
  const hexTail = (from: number) => split(hexUpper(b.subarray(from)));
  switch (type) {
    case 'DS':
    case 'CDS': {
      const value: DsValue = {
        keyTag: b.readUInt16BE(0),
        algorithm: b[2] as number,
        digestType: b[3] as number,
        digest: b.subarray(4).toString('hex'),
      };
      return shown(value, [value.keyTag, value.algorithm, value.digestType, hexTail(4)]);
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
      return shown(value, [value.flags, value.protocol, value.algorithm, split(value.publicKey)]);
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
      return shown(value, [
        value.typeCovered,
        value.algorithm,
        value.labels,
        value.originalTtl,
        rrsigTime(value.expiration),
        rrsigTime(value.inception),
        value.keyTag,
        signer.text,
        split(value.signature),
      ]);
    }
    case 'NSEC': {
      const next = readWireName(b, 0);
      const types = readTypeBitmap(b, next.end).map(rrTypeName);
      const value: NsecValue = { next: bare(next.text), types };
      return shown(value, [next.text, ...types]);
    }
    case 'NSEC3':
    case 'NSEC3PARAM': {
      const saltLength = b[4] as number;
      const salt = b.subarray(5, 5 + saltLength);
      const head: Nsec3ParamValue = {
        hashAlgorithm: b[0] as number,
        flags: b[1] as number,
        iterations: b.readUInt16BE(2),
        salt: salt.toString('hex'),
      };
      const saltText = saltLength === 0 ? '-' : hexUpper(salt);
      const fields = [head.hashAlgorithm, head.flags, head.iterations, saltText];
      if (type === 'NSEC3PARAM') return shown(head, fields);
      const hashStart = 6 + saltLength;
      const hashEnd = hashStart + (b[5 + saltLength] as number);
      const next = base32hex(b.subarray(hashStart, hashEnd));
      const types = readTypeBitmap(b, hashEnd).map(rrTypeName);
      const value: Nsec3Value = { ...head, next, types };
      return shown(value, [...fields, next, ...types]);
    }
    case 'TLSA': {
      const value: TlsaValue = {
        usage: b[0] as number,
        selector: b[1] as number,
        matchingType: b[2] as number,
        data: b.subarray(3).toString('hex'),
      };
      return shown(value, [value.usage, value.selector, value.matchingType, hexTail(3)]);
    }
    case 'SSHFP': {
      const value: SshfpValue = {
        algorithm: b[0] as number,
        fingerprintType: b[1] as number,
        fingerprint: b.subarray(2).toString('hex'),
      };
      return shown(value, [value.algorithm, value.fingerprintType, hexTail(2)]);
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
      return shown(value, [value.order, value.preference, ...strings, replacement.text]);
    }
    case 'SVCB':
    case 'HTTPS': {
      const target = readWireName(b, 2);
      const { params, texts } = readSvcParams(b, target.end);
      const value: SvcbValue = { priority: b.readUInt16BE(0), target: bare(target.text), params };
      return shown(value, [value.priority, target.text, ...texts]);
    }
    default:
      throw new RangeError(`no presentation for ${type}`);
  }
}
