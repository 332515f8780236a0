/**
 * SvcParams of SVCB and HTTPS records (RFC 9460 §2.2, §7), decoded from rdata bytes. dns-packet
 * 5.6 has no codec for these types and no maintained npm library decodes SvcParams on their own
 * (the DNS libraries that do bring a whole resolver), so this small decoder is ours.
 * @module
 */
import type { z } from 'zod';
import type { svcParamsSchema } from '../dns/schema.js';
import { presentIPv6, quoteString } from './resolver-present.js';

/**
 * The decoded SvcParams; keys without a name of their own appear as `key<N>` (hex value). The
 * same object is the `params` of a v1 DNS answer's `svc_params`, so its schema is the type.
 */
export type SvcParams = z.output<typeof svcParamsSchema>;

/** SvcParamKey names of the IANA "Service Parameter Keys (SvcParamKeys)" registry. */
const SVC_PARAM_KEYS: readonly string[] = [
  'mandatory',
  'alpn',
  'no-default-alpn',
  'port',
  'ipv4hint',
  'ech',
  'ipv6hint',
  'dohpath',
];

/** A SvcParamKey by name, or `key<N>` (RFC 9460 §2.1). */
function svcParamKeyName(key: number): string {
  return SVC_PARAM_KEYS[key] ?? `key${key}`;
}

/**
 * The SvcParams part of the rdata (after priority and target): the values of RFC 9460 §7's keys
 * as JSON-friendly fields, and each param as BIND 9.18 prints it (lib/dns/rdata/in_1/svcb_64.c).
 */
export function readSvcParams(
  view: Buffer,
  offset: number,
): { params: SvcParams; texts: string[] } {
  const params: Record<string, unknown> = {};
  const texts: string[] = [];
  let at = offset;
  while (at < view.length) {
    if (at + 4 > view.length) throw new RangeError('truncated SvcParam');
    const key = view.readUInt16BE(at);
    const length = view.readUInt16BE(at + 2);
    at += 4;
    if (at + length > view.length) throw new RangeError('SvcParam value runs past the rdata');
    const name = svcParamKeyName(key);
    const [value, text] = svcParam(key, view.subarray(at, at + length));
    if (value !== undefined) params[name] = value;
    texts.push(text === undefined ? name : `${name}=${text}`);
    at += length;
  }
  return { params: params as SvcParams, texts };
}

/**
 * One SvcParam's value (`undefined`: left out) and its text after `key=` (`undefined`: the bare
 * key): the ALPN list and unknown values quoted, a comma inside an ALPN id escaped (RFC 9460
 * Appendix A.1).
 */
function svcParam(key: number, value: Buffer): [unknown, string | undefined] {
  switch (key) {
    case 0: {
      const keys = pairs(value, 2).map((k) => svcParamKeyName(k.readUInt16BE(0)));
      return [keys, keys.join(',')];
    }
    case 1: {
      const ids = alpnIds(value);
      const texts = ids.map((id) => quoteString(id).slice(1, -1).replace(/,/g, '\\\\,'));
      return [ids.map((id) => id.toString('utf8')), `"${texts.join(',')}"`];
    }
    case 2:
      return [true, undefined];
    case 3:
      return [value.length === 2 ? value.readUInt16BE(0) : undefined, `${value.readUInt16BE(0)}`];
    case 4: {
      const hints = pairs(value, 4).map((a) => [...a].join('.'));
      return [hints, hints.join(',')];
    }
    case 5:
      return [value.toString('base64'), value.toString('base64')];
    case 6: {
      const hints = pairs(value, 16).map(ipv6Text);
      return [hints, hints.join(',')];
    }
    default:
      return [
        value.toString(key === 7 ? 'utf8' : 'hex'),
        value.length === 0 ? undefined : quoteString(value),
      ];
  }
}

/** The alpn-ids: a sequence of length-prefixed strings (RFC 9460 §7.1.1). */
function alpnIds(value: Buffer): Buffer[] {
  const ids: Buffer[] = [];
  let at = 0;
  while (at < value.length) {
    const length = value[at] as number;
    ids.push(value.subarray(at + 1, at + 1 + length));
    at += 1 + length;
  }
  return ids;
}

/** Fixed-size items of a list value (mandatory keys, address hints). */
function pairs(value: Buffer, size: number): Buffer[] {
  const items: Buffer[] = [];
  for (let at = 0; at + size <= value.length; at += size) items.push(value.subarray(at, at + size));
  return items;
}

/** An IPv6 address as `inet_ntop` prints it (what dig shows in `ipv6hint`). */
function ipv6Text(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return presentIPv6(groups.join(':'));
}
