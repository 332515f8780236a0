/**
 * Signed test zones made by the real signers: keys from `dnssec-keygen` (bind9-utils) or
 * `ldns-keygen` (ldnsutils), zones signed by `dnssec-signzone` or `ldns-signzone`, DS records
 * from `dnssec-dsfromkey`. A tree of `ZoneSpec`s is built bottom-up: each parent zone gets the
 * NS, glue and DS records of its children, then is signed itself; the root's DS is the trust
 * anchor. Nothing here computes a digest or a signature in JavaScript, so the validator under
 * test is checked against independent code.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServedZone, toolAvailable } from './nsd-server.js';
import { prerequisite } from './prerequisite.js';

/** DNSSEC algorithms of the tests (RFC 8624 §3.1 "MUST" and "RECOMMENDED" ones). */
export type TestAlgorithm = 8 | 13 | 14 | 15;

export interface ZoneSpec {
  /** Origin without trailing dot (`` for the root). */
  name: string;
  /** Extra zone-file lines (owner names relative to the origin or absolute). */
  records?: string[];
  /** Signing algorithm; absent means the zone is served unsigned. */
  algorithm?: TestAlgorithm;
  /** Which toolchain signs it. @default 'bind' */
  signer?: 'bind' | 'ldns';
  /** NSEC3 (RFC 5155) instead of NSEC; `optOut` sets the Opt-Out flag. */
  nsec3?: { salt: string; iterations: number; optOut?: boolean };
  /** RRSIG inception/expiration (YYYYMMDDHHMMSS) when not the signer's default. */
  validity?: { inception: string; expiration: string };
  /**
   * What the parent publishes as DS: the real one, a wrong digest, the DS of a key the child
   * never publishes, or none (an unsigned delegation). @default 'valid' for signed zones
   */
  ds?: 'valid' | 'bad-digest' | 'missing-key' | 'none';
  children?: ZoneSpec[];
  /**
   * Lines made from the key tags of the zone's own KSK and ZSK: `signed` ones go into the zone
   * before signing (extra DNSKEYs then join the signed DNSKEY RRset), `unsigned` ones are
   * appended to the signed file (RRSIGs that no signer made). For the KeyTrap tests.
   */
  craft?: (tags: { ksk: number; zsk: number }) => { signed?: string[]; unsigned?: string[] };
}

export interface BuiltHierarchy {
  /** Every zone, for `startNsd`. */
  zones: ServedZone[];
  /** The root's DS records in zone-file form (the trust anchor). */
  trustAnchor: string;
  /** Origins of all zones (for Unbound stub zones). */
  names: string[];
}

const BIND_ALGORITHMS: Record<TestAlgorithm, string> = {
  8: 'RSASHA256',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
};

const fqdn = (name: string) => (name === '' ? '.' : `${name}.`);

/** Builds and signs `root` and its descendants in `dir`. */
/**
 * NSD and both signers are installed — what a test of the signed tree needs; with CI=true a
 * missing one fails (`prerequisite`). `.ci/run` installs them.
 */
export function signedTreeToolsPresent(): boolean {
  return (
    prerequisite('nsd', toolAvailable('nsd', ['-v']), 'apt-get install nsd') &&
    prerequisite(
      'dnssec-signzone',
      toolAvailable('dnssec-signzone', ['-h']),
      'apt-get install bind9-utils',
    ) &&
    prerequisite(
      'ldns-signzone',
      toolAvailable('ldns-signzone', ['-v']),
      'apt-get install ldnsutils',
    )
  );
}

export function buildSignedHierarchy(dir: string, root: ZoneSpec): BuiltHierarchy {
  const zones: ServedZone[] = [];
  const { ds } = buildZone(dir, root, zones);
  return { zones, trustAnchor: ds.join('\n'), names: zones.map((z) => z.name) };
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A key pair; returns the base name of the key files (`K<name>.+alg+tag`). */
function keygen(dir: string, zone: ZoneSpec, ksk: boolean): string {
  const algorithm = zone.algorithm as TestAlgorithm;
  const bits = algorithm === 8 ? ['-b', ksk ? '2048' : '1024'] : [];
  if (zone.signer === 'ldns') {
    const ldnsName = algorithm === 8 ? 'RSASHA256' : BIND_ALGORITHMS[algorithm];
    const args = ['-a', ldnsName, ...bits, ...(ksk ? ['-k'] : []), fqdn(zone.name)];
    return run('ldns-keygen', args, dir).trim();
  }
  const args = [
    '-q',
    '-K',
    dir,
    '-a',
    BIND_ALGORITHMS[algorithm],
    ...bits,
    ...(ksk ? ['-f', 'KSK'] : []),
    '-n',
    'ZONE',
    fqdn(zone.name),
  ];
  return run('dnssec-keygen', args, dir).trim();
}

/** The key tag in a key file's base name (`K<name>+<alg>+<tag>`, both signers). */
const tagOf = (keyBase: string) => Number(keyBase.split('+').at(-1));

function dsOf(dir: string, keyBase: string): string {
  return run('dnssec-dsfromkey', ['-2', `${keyBase}.key`], dir).trim();
}

/** Flips the last hex digit of a DS digest. */
function corruptDigest(ds: string): string {
  const last = ds.at(-1) as string;
  return ds.slice(0, -1) + (last === '0' ? '1' : '0');
}

function buildZone(
  dir: string,
  zone: ZoneSpec,
  out: ServedZone[],
): { ds: string[]; nsName: string } {
  const origin = fqdn(zone.name);
  const nsName = zone.name === '' ? 'ns1.' : `ns1.${origin}`;
  const lines = [
    `$ORIGIN ${origin}`,
    '$TTL 300',
    `@ IN SOA ${nsName} hostmaster.${zone.name === '' ? 'root.' : origin} 1 7200 900 1209600 300`,
    `@ IN NS ${nsName}`,
    `${nsName} IN A 127.0.0.1`,
    ...(zone.records ?? []),
  ];
  for (const child of zone.children ?? []) {
    const built = buildZone(dir, child, out);
    lines.push(`${fqdn(child.name)} IN NS ${built.nsName}`);
    lines.push(`${built.nsName} IN A 127.0.0.1`);
    lines.push(...built.ds);
  }
  const safe = zone.name === '' ? 'root' : zone.name;
  const unsignedFile = join(dir, `${safe}.zone`);
  if (zone.algorithm === undefined) {
    writeFileSync(unsignedFile, `${lines.join('\n')}\n`);
    out.push({ name: zone.name, file: unsignedFile });
    return { ds: [], nsName };
  }
  const ksk = keygen(dir, zone, true);
  const zsk = keygen(dir, zone, false);
  const crafted = zone.craft?.({ ksk: tagOf(ksk), zsk: tagOf(zsk) }) ?? {};
  lines.push(...(crafted.signed ?? []));
  writeFileSync(unsignedFile, `${lines.join('\n')}\n`);
  const signedFile = join(dir, `${safe}.signed`);
  if (zone.signer === 'ldns') {
    const args = ['-f', signedFile];
    if (zone.nsec3) {
      args.push('-n', '-s', zone.nsec3.salt || '-', '-t', String(zone.nsec3.iterations));
      if (zone.nsec3.optOut) args.push('-p');
    }
    if (zone.validity) args.push('-i', zone.validity.inception, '-e', zone.validity.expiration);
    run('ldns-signzone', [...args, unsignedFile, ksk, zsk], dir);
  } else {
    // The keys are named explicitly (no -S smart signing): only they are published and used.
    const keyLines = [ksk, zsk].map((k) => `$INCLUDE ${join(dir, `${k}.key`)}`);
    writeFileSync(unsignedFile, `${[...lines, ...keyLines].join('\n')}\n`);
    const args = ['-K', dir, '-o', origin, '-f', signedFile, '-P', '-k', `${ksk}.key`];
    if (zone.nsec3) {
      args.push('-3', zone.nsec3.salt || '-', '-H', String(zone.nsec3.iterations));
      if (zone.nsec3.optOut) args.push('-A');
    }
    if (zone.validity) args.push('-s', zone.validity.inception, '-e', zone.validity.expiration);
    run('dnssec-signzone', [...args, unsignedFile, `${zsk}.key`], dir);
  }
  // The signed file must exist and hold signatures.
  if (!readFileSync(signedFile, 'utf8').includes('RRSIG')) {
    throw new Error(`signing ${origin} produced no RRSIG`);
  }
  if (crafted.unsigned?.length) appendFileSync(signedFile, `${crafted.unsigned.join('\n')}\n`);
  out.push({ name: zone.name, file: signedFile });
  const mode = zone.ds ?? 'valid';
  if (mode === 'none') return { ds: [], nsName };
  if (mode === 'missing-key') {
    // A KSK that exists only as a DS at the parent: the child never publishes it.
    const ghost = keygen(dir, zone, true);
    return { ds: [dsOf(dir, ghost)], nsName };
  }
  const ds = dsOf(dir, ksk);
  return { ds: [mode === 'bad-digest' ? corruptDigest(ds) : ds], nsName };
}

/** Validity window in the past: every signature of the zone has expired (RFC 4035 §5.3.1). */
const EXPIRED = { inception: '20200101000000', expiration: '20200201000000' };

/**
 * The test hierarchy of issue 19: a signed root (RSA/SHA-256, NSEC), a TLD `example.` with
 * NSEC3 opt-out (ECDSA P-256) and a TLD `sample.` with NSEC (Ed25519, ldns), under them one
 * secure child per algorithm, an unsigned child under each TLD (absence of DS proven by NSEC3
 * opt-out and by NSEC), a wrong DS digest, expired signatures, a DS whose key is missing, and
 * wildcards in an NSEC3 and an NSEC zone. Also the records the `dig +short` comparison reads.
 */
export function dnssecTestTree(): ZoneSpec {
  const hosts = ['www IN A 192.0.2.1', 'www IN AAAA 2001:db8::1', 'txt IN TXT "hello"'];
  return {
    name: '',
    algorithm: 8,
    signer: 'bind',
    children: [
      {
        name: 'example',
        algorithm: 13,
        signer: 'bind',
        nsec3: { salt: 'AABBCCDD', iterations: 0, optOut: true },
        children: [
          { name: 'rsa.example', algorithm: 8, signer: 'ldns', records: hosts },
          {
            name: 'p256.example',
            algorithm: 13,
            signer: 'bind',
            nsec3: { salt: '', iterations: 0 },
            records: [
              ...hosts,
              '*.wild IN A 192.0.2.99',
              'alias IN CNAME www',
              'outside IN CNAME www.ed25519.example.',
              'tounsigned IN CNAME www.unsigned.example.',
              'svc IN HTTPS 1 . alpn="h2,h3" port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQBBpQAgACB/ ipv6hint=2001:db8::1,2001:db8::2 mandatory=alpn,port',
              'svc IN SVCB 0 svc2.p256.example.',
              'svc2 IN SVCB 16 foo.example. key65333="hello" no-default-alpn alpn=h2 port=53',
              '_443._tcp IN TLSA 3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
              'host IN SSHFP 4 2 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
              'sip IN NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.p256.example.',
              'enum IN NAPTR 100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .',
              '@ IN CDS 0 0 0 00',
              '@ IN CDNSKEY 0 3 0 AA==',
            ],
          },
          { name: 'p384.example', algorithm: 14, signer: 'bind', records: hosts },
          { name: 'ed25519.example', algorithm: 15, signer: 'ldns', records: hosts },
          { name: 'unsigned.example', records: hosts },
          { name: 'baddigest.example', algorithm: 13, ds: 'bad-digest', records: hosts },
          { name: 'expired.example', algorithm: 13, validity: EXPIRED, records: hosts },
          { name: 'nokey.example', algorithm: 13, ds: 'missing-key', records: hosts },
        ],
      },
      {
        name: 'sample',
        algorithm: 15,
        signer: 'ldns',
        records: ['*.wild IN TXT "wildcard"'],
        children: [{ name: 'unsigned.sample', records: hosts }],
      },
    ],
  };
}
