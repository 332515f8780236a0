/**
 * Issue 20 item 1: no parser of remote text may be super-linear. For each worst case the time
 * for ~1 MiB must stay within a bound, and growing the input 4× must grow the time about 4×
 * (a quadratic parser shows ~16×). Then random mixes of the hostile tokens, as property tests:
 * no parser throws on them, and none takes long.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cpuMs, sizeOf, timesMs, WORST_CASES, wallMs } from './inputs.js';
import { PARSERS } from './parsers.js';

describe('worst-case input: linear time', () => {
  test('every parser has worst cases', () => {
    expect(new Set(WORST_CASES.map((c) => c.parser))).toEqual(new Set(Object.keys(PARSERS)));
  });

  test.each(WORST_CASES.map((c) => [`${c.parser}: ${c.shape}`, c] as const))(
    '%s',
    (_name, c) => {
      const parse = PARSERS[c.parser] as (input: unknown) => unknown;
      // At the largest input that can arrive, and at a quarter of it.
      const big = c.make(c.limit);
      const small = c.make(c.limit / 4);
      // CPU time: a runner busy with other test files keeps this process waiting, which
      // wall-clock time would count (up to 10× the CPU time at a load of 8 on 2 cores).
      const bigTimes = timesMs(() => parse(big), 5, cpuMs);
      const bigMs = bigTimes[2] as number; // the median
      // One synchronous step on the largest possible input stays bounded (BENCHMARKS.md has
      // the per-MiB figures against the 50 ms/MiB target and the cases that still miss it; the
      // slowest, a CSP of 1 MiB of distinct non-ASCII sources sorted with the collator, took
      // 1.1 s of CPU on a loaded runner). 2 s still catches a catastrophic case: the old HTML
      // scanner took 5 s at 128 KiB, a WHOIS status of 64 KiB of spaces 8 s.
      expect(bigMs, `${bigMs.toFixed(1)} ms for ${sizeOf(big)} bytes`).toBeLessThan(2000);
      // Linear: 4× the input may not take much more than 4× the time (quadratic would be ~16×).
      // Small timings are noisy on a shared runner: below 2 ms the ratio says nothing.
      // The shortest runs: a garbage collection or another process only ever adds time (one
      // in the big runs made a linear parser look 11× slower).
      // Wall-clock here: process CPU time also counts V8's concurrent marking threads, which
      // made the same parse read anywhere from 10× to 16× on one machine within minutes.
      // Below 256 KiB (a header, a record in a DNS message) the two sizes are 256 and 64 KiB, more
      // than can arrive: at 64 and 16 KiB a quadratic term can hide under that 2 ms floor (a tag-list
      // reader that searched the rest of the record for "=" from every segment read 4.8× there,
      // and 16× at these sizes).
      // (Not a DNS message: one is at most 65,535 bytes by its TCP length field, RFC 1035 §4.2.2.)
      const probe = c.limit > 0xffff || big instanceof Uint8Array ? c.limit : 256 * 1024;
      const wide = probe === c.limit ? big : c.make(probe);
      const narrow = probe === c.limit ? small : c.make(probe / 4);
      const bigWall = timesMs(() => parse(wide), 5, wallMs);
      const smallWall = timesMs(() => parse(narrow), 5, wallMs);
      const ratio = (bigWall[0] as number) / Math.max(smallWall[0] as number, 2);
      const sizeRatio = sizeOf(wide) / sizeOf(narrow);
      // 3.5× the size ratio (14× here): a quadratic parser takes ~16×, while a linear one that
      // keeps ~100,000 small objects alive grows its garbage-collection work with its live heap
      // and reads up to ~12× (a CSP of thousands of distinct directives, one Set each, 10.5–11.7×
      // in CI and by hand on 2026-11-24; BENCHMARKS.md lists that shape among the misses).
      expect(ratio, `4× the input took ${ratio.toFixed(1)}× the time`).toBeLessThan(
        sizeRatio * 3.5,
      );
      // Twelve parses of up to 1 MiB: a loaded runner needs more than the default 20 s.
    },
    60_000,
  );
});

const hostile = fc.constantFrom(
  '<script>',
  '</script>',
  '<style>',
  '<!--',
  '-->',
  '<meta http-equiv="refresh" content="0">',
  '"',
  "'",
  '=',
  ';',
  ',',
  ':',
  '\n',
  ' ',
  '\\',
  '%{',
  '}',
  '(',
  ')',
  'a',
  '0',
);

describe('random mixes of hostile tokens (fast-check)', () => {
  const texts = Object.keys(PARSERS).filter((name) => !name.startsWith('DNS wire'));
  test.each(texts)('%s: never throws, never slow', (name) => {
    const parse = PARSERS[name] as (input: unknown) => unknown;
    const rdap = name.startsWith('RDAP');
    const csp = name.startsWith('CSP');
    fc.assert(
      fc.property(
        fc.array(hostile, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 200 }),
        (tokens, times) => {
          const text = tokens.join('').repeat(times);
          const input = rdap
            ? JSON.stringify({ ldhName: text, entities: [{ roles: [text] }] })
            : csp
              ? [text]
              : text;
          const t0 = performance.now();
          parse(input);
          expect(performance.now() - t0).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('DNS wire: random bytes and truncations are refused or decoded, never thrown', () => {
    const parse = PARSERS['DNS wire (dns-packet via matchResponse)'] as (
      input: Uint8Array,
    ) => unknown;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4096 }), (bytes) => {
        expect(() => parse(bytes)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
