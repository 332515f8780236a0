/**
 * DS digests (RFC 4034 §5.1.4): the hash of the owner name in canonical wire form followed by the
 * DNSKEY rdata, with SHA-1 (type 1, RFC 4034), SHA-256 (2, RFC 4509) or SHA-384 (4, RFC 6605).
 * @module
 */
import { createHash } from 'node:crypto';
import { nameWire } from './canonical.js';

const DIGESTS: Readonly<Record<number, string>> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };

/** IANA "Delegation Signer (DS) Resource Record (RR) Type Digest Algorithms" mnemonics. */
const DIGEST_NAMES: Readonly<Record<number, string>> = {
  1: 'SHA-1',
  2: 'SHA-256',
  3: 'GOST R 34.11-94',
  4: 'SHA-384',
};

export const digestName = (type: number) => DIGEST_NAMES[type] ?? `digest type ${type}`;

export const isSupportedDigest = (type: number) => type in DIGESTS;

/** The DS digest of a DNSKEY (lower-case hex), or undefined for an unsupported digest type. */
export function dsDigest(
  owner: string,
  dnskeyRdata: Buffer,
  digestType: number,
): string | undefined {
  const algorithm = DIGESTS[digestType];
  if (!algorithm) return undefined;
  return createHash(algorithm).update(nameWire(owner)).update(dnskeyRdata).digest('hex');
}
