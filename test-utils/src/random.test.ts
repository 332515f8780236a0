import { describe, expect, test } from 'vitest';
import { seededRandom32 } from './random.js';

describe('seededRandom32', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    const a = seededRandom32(0x2545f491);
    const b = seededRandom32(0x2545f491);
    const c = seededRandom32(0x2545f492);
    const first = Array.from({ length: 1_000 }, a);
    expect(Array.from({ length: 1_000 }, b)).toEqual(first);
    expect(Array.from({ length: 1_000 }, c)).not.toEqual(first);
  });

  test('unsigned 32-bit values, no short cycle, both halves of the range alike', () => {
    const next = seededRandom32(7);
    const seen = new Set<number>();
    let high = 0;
    for (let i = 0; i < 100_000; i++) {
      const value = next();
      expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
      seen.add(value);
      if (value >= 2 ** 31) high++;
    }
    expect(seen.size).toBe(100_000);
    expect(high / 100_000).toBeGreaterThan(0.48);
    expect(high / 100_000).toBeLessThan(0.52);
  });

  test('seed 0 (a fixed point of xorshift) still moves', () => {
    const next = seededRandom32(0);
    expect(next()).not.toBe(0);
  });
});
