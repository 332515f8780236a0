/**
 * DKIM public-key records (RFC 6376 §3.6.1): tags v, h, k, n, p, s, t; the key type and size
 * read from the key itself (RSA SubjectPublicKeyInfo or bare RSAPublicKey, Ed25519 per
 * RFC 8463 §4).
 * @module
 */
import { createPublicKey } from 'node:crypto';
import { parseTagList } from '../tag-list.js';

/**
 * A key record's tags (§3.6.1): `version` v= (first when present), `key_type` k= (default rsa),
 * `hash_algorithms` h= (empty: all), `service_types` s= (default *), `flags` t= (y testing,
 * s strict), `notes` n=; an empty p= is `revoked`.
 */
export interface DkimKeyRecord {
  /** False when the text is not a key record (wrong `v`, no `p` tag). */
  valid: boolean;
  version: string | null;
  key_type: string;
  /** Key size in bits (RSA modulus length; 256 for Ed25519); null when unreadable or revoked. */
  key_bits: number | null;
  hash_algorithms: string[];
  service_types: string[];
  flags: string[];
  notes: string | null;
  revoked: boolean;
  errors: string[];
}

/** Parses the TXT text of `<selector>._domainkey.<domain>`. Never throws. */
export function parseDkimKeyRecord(text: string): DkimKeyRecord {
  const record: DkimKeyRecord = {
    valid: false,
    version: null,
    key_type: 'rsa',
    key_bits: null,
    hash_algorithms: [],
    service_types: ['*'],
    flags: [],
    notes: null,
    revoked: false,
    errors: [],
  };
  const list = parseTagList(text);
  for (const segment of list.malformed) {
    record.errors.push(`"${segment}" is not a tag=value pair (RFC 6376 §3.2)`);
  }
  const tags = new Map<string, string>();
  for (const [index, entry] of list.entries.entries()) {
    if (tags.has(entry.name)) {
      record.errors.push(`tag "${entry.name}" appears twice (RFC 6376 §3.2: invalid record)`);
      return record;
    }
    tags.set(entry.name, entry.value);
    if (entry.name === 'v' && index !== 0) {
      record.errors.push('"v=" must be the first tag (RFC 6376 §3.6.1)');
      return record;
    }
  }
  const version = tags.get('v');
  if (version !== undefined) {
    record.version = version;
    if (version !== 'DKIM1') {
      record.errors.push(`v=${version}: only DKIM1 is defined (RFC 6376 §3.6.1)`);
      return record;
    }
  }
  const list_ = (value: string | undefined) =>
    (value ?? '')
      .split(':')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  record.key_type = (tags.get('k') ?? 'rsa').toLowerCase();
  record.hash_algorithms = list_(tags.get('h'));
  record.service_types = tags.has('s') ? list_(tags.get('s')) : ['*'];
  record.flags = list_(tags.get('t'));
  record.notes = tags.get('n') ?? null;

  const p = tags.get('p');
  if (p === undefined) {
    record.errors.push('the required "p=" tag (the public key) is missing (RFC 6376 §3.6.1)');
    return record;
  }
  record.valid = true;
  // §3.6.1: whitespace (FWS) may appear inside the base64 value.
  const base64 = p.replace(/\s+/g, '');
  if (base64 === '') {
    record.revoked = true;
    return record;
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    record.errors.push('"p=" is not base64 (RFC 6376 §3.6.1)');
    return record;
  }
  record.key_bits = keyBits(record.key_type, Buffer.from(base64, 'base64')) ?? null;
  if (record.key_bits === null) {
    record.errors.push(`"p=" does not hold a readable ${record.key_type} public key`);
  }
  return record;
}

function keyBits(type: string, der: Buffer): number | undefined {
  // RFC 8463 §4: the Ed25519 key is the bare 32-octet public key.
  if (type === 'ed25519') return der.length === 32 ? 256 : undefined;
  if (type !== 'rsa') return undefined;
  // RFC 6376 §3.6.1 specifies SubjectPublicKeyInfo; some signers publish a bare RSAPublicKey.
  for (const format of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type: format });
      const bits = key.asymmetricKeyDetails?.modulusLength;
      if (key.asymmetricKeyType === 'rsa' && bits) return bits;
    } catch {
      // try the next encoding
    }
  }
  return undefined;
}

/** True when a TXT text looks like a DKIM key record (has v=DKIM1 or a p= tag). */
export function looksLikeDkimKey(text: string): boolean {
  return /^\s*v\s*=\s*DKIM1\b/i.test(text) || /(^|;)\s*p\s*=/.test(text);
}
