/**
 * SvcParams of SVCB and HTTPS records (RFC 9460 §2.2, §7), decoded from rdata bytes. dns-packet
 * 5.6 has no codec for these types and no maintained npm library decodes SvcParams on their own
 * (the DNS libraries that do bring a whole resolver), so this small decoder is ours.
 * @module
 */
import type { z } from 'zod';
import type { svcParamsSchema } from '../dns/schema.js';
import { presentIPv6 } from './resolver-present.js';

/**
 * The decoded SvcParams; keys without a name of their own appear as `key<N>` (hex value). The
 * same object is the `params` of a v1 DNS answer's `svc_params`, so its schema is the type.
 */
export type SvcParams = z.output<typeof svcParamsSchema>;

/** SvcParamKey names of the IANA "Service Parameter Keys (SvcParamKeys)" registry. */
export const SVC_PARAM_KEYS: readonly string[] = [
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
export function svcParamKeyName(key: number): string {
  return SVC_PARAM_KEYS[key] ?? `key${key}`;
}

/** One SvcParam as it sits in the rdata: key and raw value. */
export interface RawSvcParam {
  key: number;
  value: Uint8Array;
}

/** Splits the SvcParams part of the rdata (after priority and target) into key/value pairs. */
export function readSvcParams(bytes: Uint8Array, offset: number): RawSvcParam[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const params: RawSvcParam[] = [];
  let at = offset;
  while (at < view.length) {
    if (at + 4 > view.length) throw new RangeError('truncated SvcParam');
    const key = view.readUInt16BE(at);
    const length = view.readUInt16BE(at + 2);
    at += 4;
    if (at + length > view.length) throw new RangeError('SvcParam value runs past the rdata');
    params.push({ key, value: view.subarray(at, at + length) });
    at += length;
  }
  return params;
}

/** The values of RFC 9460 §7's keys as JSON-friendly fields. */
export function decodeSvcParams(params: readonly RawSvcParam[]): SvcParams {
  const out: Record<string, unknown> = {};
  for (const { key, value } of params) {
    const view = Buffer.from(value);
    switch (key) {
      case 0:
        out['mandatory'] = pairs(view, 2).map((b) => svcParamKeyName(b.readUInt16BE(0)));
        break;
      case 1:
        out['alpn'] = alpnIds(view).map((id) => id.toString('utf8'));
        break;
      case 2:
        out['no-default-alpn'] = true;
        break;
      case 3:
        if (view.length === 2) out['port'] = view.readUInt16BE(0);
        break;
      case 4:
        out['ipv4hint'] = pairs(view, 4).map((b) => [...b].join('.'));
        break;
      case 5:
        out['ech'] = view.toString('base64');
        break;
      case 6:
        out['ipv6hint'] = pairs(view, 16).map(ipv6Text);
        break;
      case 7:
        out['dohpath'] = view.toString('utf8');
        break;
      default:
        out[`key${key}`] = view.toString('hex');
    }
  }
  return out as SvcParams;
}

/** The alpn-ids: a sequence of length-prefixed strings (RFC 9460 §7.1.1). */
export function alpnIds(value: Buffer): Buffer[] {
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
export function pairs(value: Buffer, size: number): Buffer[] {
  const items: Buffer[] = [];
  for (let at = 0; at + size <= value.length; at += size) items.push(value.subarray(at, at + size));
  return items;
}

/** An IPv6 address as `inet_ntop` prints it (what dig shows in `ipv6hint`). */
export function ipv6Text(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return presentIPv6(groups.join(':'));
}
