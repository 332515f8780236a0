/** `tidyCoordinate`'s bisection against the plain digit-by-digit search it replaced. */
import { seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { tidyCoordinate } from './derive.js';

/** The shortest `toPrecision` (1-9 digits) that reads back as the same float32. */
function reference(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return value;
}

const random32 = seededRandom32(0xde61);

describe('tidyCoordinate', () => {
  test('the same as the digit-by-digit search on 500,000 float32 values', () => {
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const differ: string[] = [];
    for (let i = 0; i < 500_000; i++) {
      let value: number;
      if (i % 2) {
        // Any bit pattern (finite ones), so every exponent is covered.
        u32[0] = random32();
        value = f32[0] as number;
        if (!Number.isFinite(value)) continue;
      } else {
        // Coordinates with 1-6 decimals, as geolocation data stores them.
        const decimals = 1 + (i % 6);
        value = Math.fround(Number(((random32() / 2 ** 32) * 360 - 180).toFixed(decimals)));
      }
      if (!Object.is(tidyCoordinate(value), reference(value)) && differ.length < 5) {
        differ.push(`${value}: ${tidyCoordinate(value)} != ${reference(value)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  test('doubles that are not float32 values, and non-numbers', () => {
    expect(tidyCoordinate(37.422000885009766)).toBe(37.422);
    expect(tidyCoordinate(0.1)).toBe(0.1); // not a float32: kept as it is
    expect(tidyCoordinate(-0)).toBe(reference(-0));
    expect(tidyCoordinate(Number.NaN)).toBeNull();
    expect(tidyCoordinate('1')).toBeNull();
  });
});
