/**
 * A yardstick of the machine at the moment, not code of ours: V8's own `JSON.parse` of a fixed
 * 1 MiB document (objects, strings, numbers), in ms per MiB. On this shared machine the same
 * build reads up to twice as slow in one hour as in another; the benches of synchronous steps on
 * remote input (bench/parsers, bench/headers/grade-steps) time each run between two runs of
 * this and read a case as its multiple of it. One document for all, so that their multiples
 * compare.
 */
export const MIB = 1024 * 1024;

export const YARDSTICK_TEXT = (() => {
  const items: string[] = [];
  for (let i = 0, size = 0; size < MIB; i++) {
    const item = `{"handle":"H${i}","roles":["registrar","abuse"],"port43":"whois${i % 97}.example","events":[{"eventAction":"registration","eventDate":"2001-0${(i % 9) + 1}-1${i % 10}T00:00:00Z"}],"n":${i}}`;
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
})();

/** One `JSON.parse` of the yardstick document, ms per MiB. */
export function yardstickOnce(): number {
  const t0 = performance.now();
  JSON.parse(YARDSTICK_TEXT);
  return ((performance.now() - t0) * MIB) / YARDSTICK_TEXT.length;
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/**
 * The yardstick's median over a whole run (what a case's multiple is judged against: its cost at
 * the machine's typical speed during the run), and the line that reports it.
 */
export function overTheRun(
  yardsticks: readonly number[],
  beside: string,
): {
  typical: number;
  line: string;
} {
  const typical = median(yardsticks);
  const range = `${Math.min(...yardsticks).toFixed(1)}–${Math.max(...yardsticks).toFixed(1)}`;
  return {
    typical,
    line: `yardstick over the run (${yardsticks.length} runs beside the ${beside}): median ${typical.toFixed(1)} ms/MiB, range ${range}\n`,
  };
}
