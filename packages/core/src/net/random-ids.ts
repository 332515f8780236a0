/**
 * Unpredictable 16-bit numbers for DNS query ids and socket choice (RFC 5452 §9.2: ids and
 * source ports must not be guessable by an off-path attacker), from the CSPRNG in batches
 * (`crypto.randomInt` per query was a visible share of the resolver's CPU).
 * @module
 */
import { randomFillSync } from 'node:crypto';

const pool = new Uint16Array(2048);
let next = pool.length;

/** A uniformly random integer in [0, 65535]. */
export function randomUint16(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

/** A uniformly random integer in [0, n) for 1 ≤ n ≤ 65536 (rejection sampling, no modulo bias). */
export function randomBelow(n: number): number {
  if (n <= 1) return 0;
  const limit = 65536 - (65536 % n);
  for (;;) {
    const value = randomUint16();
    if (value < limit) return value % n;
  }
}
