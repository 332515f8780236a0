import { describe, expect, test } from 'vitest';
import { createAddressParts, parseAddressInto } from '../address.js';
import { denseBlocks } from './intel.js';
import {
  buildRangeTable,
  comboOfV4,
  comboOfV6,
  rangesFromTokens,
  type SourceRanges,
} from './range-table.js';

/** A small deterministic generator (the table must agree with a plain scan, whatever the data). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

/** Sources covering `x`, by scanning every range of every source. */
function scanV4(sources: SourceRanges[], x: number): number[] {
  const out: number[] = [];
  sources.forEach((r, s) => {
    for (let i = 0; i < r.v4.length; i += 2) {
      if ((r.v4[i] as number) <= x && x <= (r.v4[i + 1] as number)) {
        out.push(s);
        return;
      }
    }
  });
  return out;
}

function scanV6(sources: SourceRanges[], hi: number, lo: number): number[] {
  const le = (h1: number, l1: number, h2: number, l2: number) => h1 < h2 || (h1 === h2 && l1 <= l2);
  const out: number[] = [];
  sources.forEach((r, s) => {
    for (let i = 0; i < r.v6.length; i += 4) {
      const [a, b, c, d] = [r.v6[i], r.v6[i + 1], r.v6[i + 2], r.v6[i + 3]] as number[];
      if (le(a as number, b as number, hi, lo) && le(hi, lo, c as number, d as number)) {
        out.push(s);
        return;
      }
    }
  });
  return out;
}

describe('range table', () => {
  test('overlapping IPv4 ranges of many sources: every address answers its covering sources', () => {
    const next = rng(7);
    const sources: SourceRanges[] = [];
    for (let s = 0; s < 12; s++) {
      const tokens: string[] = [];
      for (let i = 0; i < 60; i++) {
        // Ranges cluster in a few /8s so that they overlap across sources.
        const base = ((next() % 4) + 10) * 2 ** 24 + (next() % 2 ** 20);
        const bits = 12 + (next() % 21);
        const v4 = base >>> 0;
        tokens.push(`${v4 >>> 24}.${(v4 >>> 16) & 255}.${(v4 >>> 8) & 255}.${v4 & 255}/${bits}`);
      }
      sources.push(rangesFromTokens(tokens));
    }
    // The ends of the address space too.
    sources.push(rangesFromTokens(['0.0.0.0/8', '255.255.255.0/24']));
    const table = buildRangeTable(sources);
    const probes: number[] = [0, 2 ** 32 - 1];
    for (const r of sources) {
      for (let i = 0; i < r.v4.length; i += 2) {
        const a = r.v4[i] as number;
        const b = r.v4[i + 1] as number;
        probes.push(a, b, Math.max(0, a - 1), Math.min(2 ** 32 - 1, b + 1));
      }
    }
    for (let i = 0; i < 5000; i++) probes.push(((next() % 4) + 10) * 2 ** 24 + (next() % 2 ** 24));
    for (const x of probes) {
      expect(table.combos[comboOfV4(table, x)], `address ${x}`).toEqual(scanV4(sources, x));
    }
  });

  test('IPv6 ranges at /64 granularity, longer prefixes cover their /64', () => {
    const sources = [
      rangesFromTokens(['2a02:26f7::/32', '2a02:26f7:b3c0:4000::/64', '2a02:2000:0:5::/64']),
      rangesFromTokens(['2a02:26f7:b3c0::/48', '2001:db8::1/128']),
      rangesFromTokens(['::/0']),
    ];
    const table = buildRangeTable(sources);
    const parts = createAddressParts();
    const combo = (ip: string) => {
      expect(parseAddressInto(ip, parts)).toBe(true);
      return table.combos[comboOfV6(table, parts.w0, parts.w1)];
    };
    expect(combo('2a02:26f7:b3c0:4000::1')).toEqual([0, 1, 2]);
    expect(combo('2a02:26f7:b3c0:4001::1')).toEqual([0, 1, 2]);
    expect(combo('2a02:26f7:b3c1::1')).toEqual([0, 2]);
    expect(combo('2a02:26f8::')).toEqual([2]);
    expect(combo('2001:db8::ffff')).toEqual([1, 2]); // the /128 covers its /64
    expect(combo('2001:db8:0:1::')).toEqual([2]);
    expect(combo('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toEqual([2]);
    const next = rng(11);
    const probes: [number, number][] = [];
    for (let i = 0; i < 3000; i++) probes.push([next(), next()]);
    // Every range edge and its neighbours, including starts that share a bucket's high word.
    for (const r of sources) {
      for (let i = 0; i < r.v6.length; i += 4) {
        const [a, b, c, d] = [r.v6[i], r.v6[i + 1], r.v6[i + 2], r.v6[i + 3]] as number[];
        probes.push([a as number, b as number], [c as number, d as number], [a as number, 0]);
        if ((b as number) > 0) probes.push([a as number, (b as number) - 1]);
        if ((d as number) < 2 ** 32 - 1) probes.push([c as number, (d as number) + 1]);
      }
    }
    for (const [hi, lo] of probes) {
      expect(table.combos[comboOfV6(table, hi, lo)], `${hi}:${lo}`).toEqual(
        scanV6(sources, hi, lo),
      );
    }
  });

  test('dense blocks: the span of a source inside a /16 with enough ranges, nothing else', () => {
    const r = rangesFromTokens([
      '10.1.0.0/24',
      '10.1.200.0/24',
      '10.2.0.0/24',
      '2a02:26f7:1::/48',
      '2a02:26f7:9::/64',
    ]);
    const blocks = denseBlocks(r, 16, 32, 2);
    // 10.1.0.0–10.1.200.255 (two ranges in 10.1/16); 10.2/16 has one range: no block.
    expect([...blocks.v4]).toEqual([0x0a010000, 0x0a01c8ff]);
    expect([...blocks.v6]).toEqual([0x2a0226f7, 0x00010000, 0x2a0226f7, 0x00090000]);
  });
});
