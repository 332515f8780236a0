/**
 * Issue 42: the parsers of BOUNDED (WHOIS, RDAP, SPF, DMARC) against absolute bounds, on each
 * worst case of inputs.ts at the largest input that can arrive (a WHOIS answer of 256 KiB, an
 * RDAP body of 2 MiB, an SPF or DMARC record in one DNS message, 64 KiB):
 * - one parse takes at most 50 ms of CPU;
 * - a quarter of the input takes at least a sixth of the time (4× the input ≤ 6× the time),
 *   at the cap or one size down;
 * - the synchronous step of a request that parses it takes at most 100 ms (for RDAP, V8's
 *   `JSON.parse` of the body and then ours, TWO_STEPS).
 * CPU time of this process (`process.cpuUsage()`), the best of several runs: a loaded runner
 * keeps the process waiting for a core, which wall-clock time would count, and a collection or
 * a neighbour only ever adds time. On a shared 2-core machine at loads of 2 to 10 the parses
 * took at most 13 ms, their turns at most 25 ms, and grew at most 5.7× (2026-12-02).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, test } from 'vitest';
import { cpuMs, sizeOf, WORST_CASES } from './inputs.js';
import { BOUNDED, PARSERS, TWO_STEPS } from './parsers.js';

/** One parse of the largest input, in ms of CPU. */
const MAX_MS = 50;
/** 4× the input may take at most this many times as long. */
const MAX_GROWTH = 6;
/** The event loop is never held longer than this by one request's parse. */
const MAX_TURN_MS = 100;

/**
 * A full collection before each timed batch, so that a batch starts from the same heap whatever
 * the batches and cases before it left (V8's `gc`, exposed at run time, as bench/parsers does).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** CPU ms of `batch` calls of `run`. */
function batchCpuMs(run: () => unknown, batch: number): number {
  collectGarbage();
  const t0 = cpuMs();
  for (let k = 0; k < batch; k++) run();
  return cpuMs() - t0;
}

/** The least CPU ms of one call of `run` in five, after a warm-up. */
function onceMs(run: () => unknown): number {
  run();
  return Math.min(...Array.from({ length: 5 }, () => batchCpuMs(run, 1)));
}

/**
 * How many times as long a parse of `big` takes as one of `small`: batches of about 25 ms,
 * four times as many parses of the quarter (both batches as long, so that a slow stretch of
 * the machine or a collection weighs on both alike), big and small in turn, the best of seven
 * of each.
 */
function growth(parse: (input: unknown) => unknown, big: unknown, small: unknown, once: number) {
  const batch = Math.max(1, Math.ceil(25 / Math.max(once, 0.05)));
  const rounds = Array.from({ length: 7 }, () => [
    batchCpuMs(() => parse(big), batch),
    batchCpuMs(() => parse(small), 4 * batch) / 4,
  ]);
  const best = (i: number) => Math.min(...rounds.map((round) => round[i] as number));
  return best(0) / best(1);
}

const cases = WORST_CASES.filter((c) => BOUNDED.has(c.parser));
/** The figures measured, printed as one table after the cases. */
const figures: string[] = [];
afterAll(() => {
  const head = '| parser | worst case | CPU ms at the cap | 4× input: × time | ms in one turn |';
  console.log([head, '|---|---|---:|---:|---:|', ...figures].join('\n'));
});

describe('worst-case input at the input cap: absolute bounds', () => {
  test('every bounded parser has worst cases', () => {
    expect(new Set(cases.map((c) => c.parser))).toEqual(BOUNDED);
  });

  test.each(cases.map((c) => [`${c.parser}: ${c.shape}`, c] as const))(
    '%s',
    (_name, c) => {
      const steps = TWO_STEPS[c.parser];
      const whole = PARSERS[c.parser] as (input: unknown) => unknown;
      const first = (steps?.first ?? ((input: unknown) => input)) as (input: unknown) => unknown;
      const parse = (steps?.read ?? whole) as (input: unknown) => unknown;
      const raw = c.make(c.limit);
      const big = first(raw);
      const small = first(c.make(c.limit / 4));
      const once = onceMs(() => parse(big));
      expect(once, `${once.toFixed(1)} ms for ${sizeOf(raw)} bytes`).toBeLessThanOrEqual(MAX_MS);
      // Over the bound at the cap, a look one size down: a step of the memory hierarchy
      // (the input's heap out of the caches) can fall between two sizes, while a quadratic
      // parser grows 16× between any two.
      let grew = growth(parse, big, small, once);
      if (grew > MAX_GROWTH) {
        const smaller = first(c.make(c.limit / 16));
        grew = Math.min(grew, growth(parse, small, smaller, once / 4));
      }
      expect(grew, `4× the input took ${grew.toFixed(1)}× the time`).toBeLessThanOrEqual(
        MAX_GROWTH,
      );
      // Both steps on input as it arrives: for RDAP a new document, which the first
      // collections after it must copy.
      const turn = steps ? onceMs(() => whole(raw)) : once;
      figures.push(
        `| ${c.parser} | ${c.shape} | ${once.toFixed(1)} | ${grew.toFixed(1)} | ${turn.toFixed(1)} |`,
      );
      expect(turn, `${turn.toFixed(1)} ms in one turn`).toBeLessThanOrEqual(MAX_TURN_MS);
    },
    60_000,
  );
});
