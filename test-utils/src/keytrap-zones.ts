/**
 * Signed zones that cost a validator work (issue 41): the KeyTrap shape (CVE-2023-50387) — a
 * DNSKEY RRset with hundreds of keys sharing the ZSK's key tag, and hundreds of RRSIGs naming
 * that tag — and a chain of CNAMEs through names of a hundred labels. The zones are signed by
 * dnssec-signzone (dnssec-zones.ts). Only the colliding keys and the forged signatures are made
 * here: real P-256 public keys (node:crypto ECDH key pairs) whose reserved flag bits are chosen so that their
 * key tag (RFC 4034 Appendix B) is the ZSK's — RFC 4034 §2.1.1 has validators ignore those bits,
 * so each is a zone key a validator must try — and RRSIGs with random bytes as signatures.
 * `collidingTags` reads the tags back with dnssec-dsfromkey, so the collision is BIND's too.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import type { ZoneSpec } from './dnssec-zones.js';

/** RFC 4034 Appendix B: the key tag of DNSKEY rdata (algorithm 1 aside). */
export function keyTagOf(rdata: Buffer): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++)
    ac += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

const ZONE_KEY = 0x0100;
/**
 * The reserved flag bits varied: not REVOKE (0x0080), nor those the KEY RR of RFC 2535 §3.1.2
 * gave a meaning BIND still reads (0xC000 no key, 0x1000 extended flags, 0x0200 name type):
 * dnssec-signzone refuses a zone holding such a key as "public key is invalid".
 */
const FREE_BITS = 0x2000 | 0x0800 | 0x0400 | 0x0040 | 0x0020 | 0x0010 | 0x000f;

/**
 * `count` DNSKEY lines (owner `@`) of distinct P-256 keys whose key tag is `tag`: for each fresh
 * key, the Zone Key flag and the free bits that give the tag (about one key in eight has them).
 */
export function collidingDnskeys(tag: number, count: number): string[] {
  const lines: string[] = [];
  const ecdh = createECDH('prime256v1');
  while (lines.length < count) {
    // A fresh key pair each time; the public key uncompressed is 04 | x | y (SEC 1 §2.3.3), and a
    // DNSKEY holds x | y (RFC 6605 §4). Not generateKeyPairSync: thousands of calls in a loop
    // deadlocked Node 20.20 here (a garbage collection ran a key job's destructor mid-call).
    ecdh.generateKeys();
    const key = ecdh.getPublicKey().subarray(1);
    const rdata = Buffer.concat([Buffer.from([0, 0, 3, 13]), key]);
    for (let bits = 0; bits <= FREE_BITS; bits++) {
      if (bits & ~FREE_BITS) continue;
      const flags = ZONE_KEY | bits;
      rdata.writeUInt16BE(flags, 0);
      if (keyTagOf(rdata) !== tag) continue;
      lines.push(`@ 300 IN DNSKEY ${flags} 3 13 ${key.toString('base64')}`);
      break;
    }
  }
  return lines;
}

/** YYYYMMDDHHMMSS, as RRSIG times are written in zone files. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);

/**
 * `count` RRSIG lines over `owner` (absolute: the lines go after the signer's output)/`type` (ECDSA P-256) naming key `tag` of `signer`, valid from
 * an hour ago for 30 days, with 64 random bytes where the signature goes.
 */
export function forgedRrsigs(
  owner: string,
  type: string,
  labels: number,
  tag: number,
  signer: string,
  count: number,
): string[] {
  const now = Date.now();
  const window = `${stamp(now + 30 * 86_400_000)} ${stamp(now - 3_600_000)}`;
  return Array.from(
    { length: count },
    () =>
      `${owner} 300 IN RRSIG ${type} 13 ${labels} 300 ${window} ${tag} ${signer} ${randomBytes(64).toString('base64')}`,
  );
}

/** The key tags of the DNSKEYs in a zone file, as dnssec-dsfromkey (bind9-utils) computes them. */
export function collidingTags(zoneFile: string, origin: string): number[] {
  const out = execFileSync('dnssec-dsfromkey', ['-A', '-2', '-f', zoneFile, origin], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return out
    .trim()
    .split('\n')
    .map((line) => Number(line.trim().split(/\s+/)[3]));
}

/** Labels of the long names of the CNAME chain: the names are ~220 characters long. */
export const CHAIN_DEPTH = 100;

/** The names of the CNAME chain, `start.chain.example` first: 9 CNAMEs, then an A record. */
export function chainNames(): string[] {
  const deep = 'a.'.repeat(CHAIN_DEPTH);
  return [
    'start.chain.example',
    ...Array.from({ length: 9 }, (_, i) => `h${i + 1}.${deep}chain.example`),
  ];
}

export interface KeyTrapCounts {
  /** DNSKEYs added with the ZSK's tag. @default 500 */
  keys?: number;
  /** Forged RRSIGs over `www A` with the ZSK's tag. @default 300 */
  rrsigs?: number;
}

/**
 * A root and `example.` (ECDSA P-256, NSEC), and below `example.`:
 * - `keytrap.example`: a signed zone whose DNSKEY RRset (signed by the KSK) also holds `keys`
 *   keys with the ZSK's tag, and whose `www A` carries `rrsigs` forged RRSIGs with that tag
 *   (50 more over the DNSKEY RRset);
 * - `sigtrap.example`: `www A` added after signing, with only `rrsigs` forged RRSIGs by the ZSK;
 * - `chain.example`: `start` and nine names of a hundred labels, each a CNAME to the next
 *   (`chainNames`), the last with an A record.
 */
export function keyTrapTree(counts: KeyTrapCounts = {}): ZoneSpec {
  const keys = counts.keys ?? 500;
  const rrsigs = counts.rrsigs ?? 300;
  const names = chainNames();
  const chain = names.slice(0, -1).map((name, i) => `${name}. IN CNAME ${names[i + 1]}.`);
  return {
    name: '',
    algorithm: 13,
    children: [
      {
        name: 'example',
        algorithm: 13,
        children: [
          {
            name: 'keytrap.example',
            algorithm: 13,
            records: ['www IN A 192.0.2.1'],
            craft: ({ zsk }) => ({
              signed: collidingDnskeys(zsk, keys),
              unsigned: [
                ...forgedRrsigs('www.keytrap.example.', 'A', 3, zsk, 'keytrap.example.', rrsigs),
                ...forgedRrsigs('keytrap.example.', 'DNSKEY', 2, zsk, 'keytrap.example.', 50),
              ],
            }),
          },
          {
            name: 'sigtrap.example',
            algorithm: 13,
            // A TXT record puts www in the NSEC chain (the walk proves it is no zone cut).
            records: ['www IN TXT "forged A below"'],
            craft: ({ zsk }) => ({
              unsigned: [
                'www.sigtrap.example. 300 IN A 192.0.2.1',
                ...forgedRrsigs('www.sigtrap.example.', 'A', 3, zsk, 'sigtrap.example.', rrsigs),
              ],
            }),
          },
          {
            name: 'chain.example',
            algorithm: 13,
            records: [...chain, `${names.at(-1)}. IN A 192.0.2.9`],
          },
        ],
      },
    ],
  };
}
