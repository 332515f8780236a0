/** Trust anchors (RFC 4033 §2, RFC 7958): the IANA root KSKs, or DS / DNSKEY records. @module */
import { InvalidInputError } from '../errors.js';
import { plainName } from './canonical.js';

/**
 * The root zone's trust anchors as IANA publishes them (https://data.iana.org/root-anchors/
 * root-anchors.xml): KSK-2017 and KSK-2024.
 */
export const IANA_ROOT_ANCHORS: readonly string[] = [
  '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
  '. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
];

export type AnchorRecord =
  | { type: 'DS'; keyTag: number; algorithm: number; digestType: number; digest: string }
  | { type: 'DNSKEY'; flags: number; protocol: number; algorithm: number; publicKey: string };

export interface TrustAnchor {
  /** The anchored zone (`` for the root). */
  zone: string;
  records: AnchorRecord[];
  /** The lines as given, for the result. */
  text: string[];
}

/**
 * Parses `owner [TTL] [IN] DS|DNSKEY rdata` lines (comments after `;` and blank lines ignored).
 * All lines must name the same zone.
 */
export function parseTrustAnchors(lines: string | readonly string[]): TrustAnchor {
  const list = (typeof lines === 'string' ? lines.split('\n') : [...lines])
    .map((l) => l.replace(/;.*$/, '').trim())
    .filter((l) => l !== '');
  if (list.length === 0) throw new InvalidInputError('no trust anchor was given', 'trustAnchors');
  let zone: string | undefined;
  const records: AnchorRecord[] = [];
  for (const line of list) {
    const tokens = line.split(/\s+/);
    const owner = plainName(tokens[0] as string);
    // TTL and class may stand between the owner and the type (RFC 1035 §5.1).
    const at = tokens.findIndex((t, i) => i > 0 && /^(DS|DNSKEY)$/i.test(t));
    const type = at > 0 ? (tokens[at] as string).toUpperCase() : '';
    const fields = at > 0 ? tokens.slice(at + 1) : [];
    const bad = () =>
      new InvalidInputError(`"${line.slice(0, 80)}" is not a DS or DNSKEY record`, 'trustAnchors');
    if (zone !== undefined && zone !== owner) {
      throw new InvalidInputError('all trust anchors must be for the same zone', 'trustAnchors');
    }
    zone = owner;
    const numbers = fields.slice(0, 3).map(Number);
    if (fields.length < 4 || numbers.some((n) => !Number.isInteger(n))) throw bad();
    const rest = fields.slice(3).join('');
    if (type === 'DS') {
      if (!/^[0-9a-f]+$/i.test(rest)) throw bad();
      records.push({
        type,
        keyTag: numbers[0] as number,
        algorithm: numbers[1] as number,
        digestType: numbers[2] as number,
        digest: rest.toLowerCase(),
      });
    } else if (type === 'DNSKEY') {
      if (!/^[A-Za-z0-9+/=]+$/.test(rest)) throw bad();
      records.push({
        type,
        flags: numbers[0] as number,
        protocol: numbers[1] as number,
        algorithm: numbers[2] as number,
        publicKey: Buffer.from(rest, 'base64').toString('base64'),
      });
    } else {
      throw bad();
    }
  }
  return { zone: zone as string, records, text: list };
}
