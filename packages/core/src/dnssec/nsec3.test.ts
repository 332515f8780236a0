/**
 * NSEC3 hashing against the worked example of RFC 5155 Appendix A (salt AABBCCDD, 12 extra
 * iterations), and covering across the wrap-around of the hash chain.
 */
import { describe, expect, test } from 'vitest';
import type { DnsRecord } from '../net/dns-types.js';
import { nsec3Covering, nsec3Entries, nsec3Hash, nsec3Matching } from './nsec3.js';

const APPENDIX_A: [string, string][] = [
  ['example', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom'],
  ['a.example', '35mthgpgcu1qg68fab165klnsnk3dpvl'],
  ['ai.example', 'gjeqe526plbf1g8mklp59enfd789njgi'],
  ['ns1.example', '2t7b4g4vsa5smi47k61mv5bv1a22bojr'],
  ['ns2.example', 'q04jkcevqvmu85r014c7dkba38o0ji5r'],
  ['w.example', 'k8udemvp1j2f7eg6jebps17vp3n8i58h'],
  ['*.w.example', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en'],
  ['x.w.example', 'b4um86eghhds6nea196smvmlo4ors995'],
  ['y.w.example', 'ji6neoaepv8b5o6k4ev33abha8ht9fgc'],
  ['x.y.w.example', '2vptu5timamqttgl4luu9kg21e0aor3s'],
  ['xx.example', 't644ebqk9bibcna874givr6joj62mlhv'],
];

describe('nsec3Hash', () => {
  test.each(APPENDIX_A)('H(%s) = %s', (name, hash) => {
    expect(nsec3Hash(name, 'aabbccdd', 12)).toBe(hash.toUpperCase());
  });

  test('the case of the name does not change the hash (canonical form, RFC 4034 §6.2)', () => {
    expect(nsec3Hash('X.W.Example', 'aabbccdd', 12)).toBe(nsec3Hash('x.w.example', 'aabbccdd', 12));
  });
});

function nsec3(owner: string, next: string, flags = 0): DnsRecord {
  return {
    name: `${owner}.example`,
    type: 'NSEC3',
    typeCode: 50,
    ttl: 300,
    data: '',
    value: { hashAlgorithm: 1, flags, iterations: 12, salt: 'aabbccdd', next, types: ['A'] },
  };
}

describe('matching and covering', () => {
  // Three of Appendix A's hashes as a chain: 0p9m… → 35mt… → k8ud… → back to 0p9m….
  const chain = nsec3Entries([
    nsec3('0p9mhaveqvm6t7vbl5lop2u3t2rp3tom', '35MTHGPGCU1QG68FAB165KLNSNK3DPVL'),
    nsec3('35mthgpgcu1qg68fab165klnsnk3dpvl', 'K8UDEMVP1J2F7EG6JEBPS17VP3N8I58H'),
    nsec3('k8udemvp1j2f7eg6jebps17vp3n8i58h', '0P9MHAVEQVM6T7VBL5LOP2U3T2RP3TOM', 1),
  ]);

  test('a name matches the NSEC3 of its own hash', () => {
    expect(nsec3Matching(chain, 'a.example')?.hash).toBe('35MTHGPGCU1QG68FAB165KLNSNK3DPVL');
    expect(nsec3Matching(chain, 'xx.example')).toBeUndefined();
  });

  test('a hash between two owners is covered by the first; past the last one it wraps', () => {
    // 2t7b… lies between 0p9m… and 35mt….
    expect(nsec3Covering(chain, 'ns1.example')?.hash).toBe('0P9MHAVEQVM6T7VBL5LOP2U3T2RP3TOM');
    // gjeq… lies between 35mt… and k8ud….
    expect(nsec3Covering(chain, 'ai.example')?.hash).toBe('35MTHGPGCU1QG68FAB165KLNSNK3DPVL');
    // t644… is after the last owner k8ud…: the wrapping NSEC3 covers it.
    expect(nsec3Covering(chain, 'xx.example')?.hash).toBe('K8UDEMVP1J2F7EG6JEBPS17VP3N8I58H');
    // An owner's own hash is matched, not covered.
    expect(nsec3Covering(chain, 'a.example')).toBeUndefined();
  });
});
