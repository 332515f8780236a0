/**
 * Every parser of remote text on its worst-case input (issue 20 item 1), at the largest size that
 * can reach it in one piece (1 MiB page, 16 KiB header, 256 KiB WHOIS answer, 2 MiB RDAP answer,
 * 64 KiB DNS message), median of 7 runs, also per MiB against the target of 50 ms per MiB. The
 * parsers are internal, so this bundles them from the sources with esbuild, as tsup builds the
 * packages, and loads the bundle as it is (../bundle.ts; no build needed first). Wall-clock time is
 * measured, with the CPU time of the process beside it (on a shared machine the wall clock also
 * counts the time spent waiting for a core), and each timed run sits between two runs of a
 * yardstick, V8's own `JSON.parse`: a case is judged on its multiple of the yardstick at that
 * moment, times the yardstick's median over the whole run (see `Row` below for why).
 * The previous HTML scanner (a regex scan that lower-cased the rest of the page for every
 * raw-text element) runs beside the current one on the same input, as the "before" row.
 * An input smaller than 1 MiB (a 64 KiB SPF record, a 16 KiB header) is parsed as many times
 * in a row as make up 1 MiB in each timed run, and the figure is the time per parse: a single
 * parse of 2–4 ms was at the mercy of the timer, a scavenge or a tier-up in the middle of it
 * (the same build measured 32 and 60 ms per MiB in two runs).
 * Run: npx tsx bench/parsers/worst-case.bench.ts
 * BENCH_ONLY=<text> keeps the cases whose parser or shape contains the text (e.g. BENCH_ONLY=CSP).
 */
import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bundled } from '../bundle.js';
import { MIB, median, overTheRun, YARDSTICK_TEXT, yardstickOnce } from '../yardstick.js';

/**
 * A full collection before each case, so that a case starts from the same heap whatever the
 * cases before it left (V8's `gc`, exposed at run time). Without it, in a third to a half of the
 * runs one case read twice its time: SPF's "thousands of short valid terms" (15,000 terms kept
 * per parse) read 5.1–5.7x the yardstick when it began just after a full collection had shrunk
 * the heap the cases before had left, with a scavenge of 12–29 ms every 60 ms that moved 8–12 MB
 * to the old generation each time (`--trace-gc`), and 2.6–3.0x otherwise; with a collection
 * first, 8 runs of 8 read 2.5–3.0x. The other cases read the same either way (two full runs of
 * each, 2026-11-29).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

// Bundled from the sources and loaded as built (../bundle.ts): the parsers are internal.
const { modules, dispose } = await bundled({
  parsers: 'packages/core/test/adversarial/parsers.ts',
  inputs: 'packages/core/test/adversarial/inputs.ts',
});
const { PARSERS } = modules.parsers as {
  PARSERS: Record<string, (input: unknown) => unknown>;
};
const { WORST_CASES, sizeOf, medianMs, cpuMs } = modules.inputs as {
  WORST_CASES: { parser: string; shape: string; limit: number; make(bytes: number): unknown }[];
  sizeOf(input: unknown): number;
  medianMs(run: () => unknown, runs?: number, clock?: () => number): number;
  cpuMs(): number;
};

/** The scanner before issue 20 (our own old code), kept here only as the "before" baseline. */
function oldScanHtml(html: string): number {
  const TAG = /<!--[\s\S]*?-->|<(meta|script|style|textarea)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
  let found = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    const name = match[1]?.toLowerCase();
    if (!name) continue;
    found++;
    const close = html.toLowerCase().indexOf(`</${name}`, TAG.lastIndex);
    if (name !== 'meta' && close !== -1 && (match[2] ?? '').trim().slice(-1) !== '/')
      TAG.lastIndex = close;
  }
  return found;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function yardstickMs(runs = 15): number {
  return (medianMs(() => JSON.parse(YARDSTICK_TEXT), runs) * MIB) / YARDSTICK_TEXT.length;
}

console.log(
  `${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load average ${load()}, yardstick (JSON.parse of 1 MiB) ${yardstickMs().toFixed(1)} ms/MiB`,
);

/**
 * Each timed run of a case sits between two yardstick runs, and the case is also read as a
 * multiple of the yardstick's mean at that moment. On this machine the same code alternates
 * between two speeds, about 1.8x apart, in stretches of a few seconds (a case's seven runs
 * often straddle a change, and the yardstick's own median read 6.4-15 ms/MiB from row to row
 * of one run): the multiple moves far less than either figure. The judged figure is that
 * multiple times the yardstick's median over the whole run, the case's cost at the machine's
 * typical speed during the run: a run that is slow throughout is judged slow throughout.
 */
interface Row {
  c: (typeof WORST_CASES)[number];
  bytes: number;
  msPerParse: number;
  perMiB: number;
  best: number;
  cpuPerMiB: number;
  multiple: number;
}
const rows: Row[] = [];
const yardsticks: number[] = [];
const only = process.env.BENCH_ONLY;
for (const c of WORST_CASES) {
  if (only && !`${c.parser} ${c.shape}`.includes(only)) continue;
  const input = c.make(c.limit);
  collectGarbage();
  const parse = PARSERS[c.parser] as (input: unknown) => unknown;
  const bytes = sizeOf(input);
  const repeat = Math.max(1, Math.floor(MIB / bytes));
  const batch = () => {
    for (let i = 0; i < repeat; i++) parse(input);
  };
  batch(); // warm-up
  yardstickOnce();
  const perMiBs: number[] = [];
  const multiples: number[] = [];
  for (let run = 0; run < 7; run++) {
    const before = yardstickOnce();
    const t0 = performance.now();
    batch();
    const perMiB = ((performance.now() - t0) / repeat) * (MIB / bytes);
    const after = yardstickOnce();
    yardsticks.push(before, after);
    perMiBs.push(perMiB);
    multiples.push(perMiB / ((before + after) / 2));
  }
  const cpu = medianMs(batch, 7, cpuMs) / repeat;
  const sorted = [...perMiBs].sort((a, b) => a - b);
  const perMiB = sorted[3] as number;
  rows.push({
    c,
    bytes,
    msPerParse: (perMiB * bytes) / MIB,
    perMiB,
    best: sorted[0] as number,
    cpuPerMiB: (cpu * MIB) / bytes,
    multiple: median(multiples),
  });
}
const { typical, line } = overTheRun(yardsticks, 'cases');
console.log(line);
console.log(
  "| parser | worst case | largest input that can arrive | ms per parse (median) | ms per MiB (median) | best of 7, ms per MiB | CPU ms per MiB | × JSON.parse beside it (median) | ms per MiB at the run's median speed | target ≤ 50 ms/MiB |",
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  const judged = r.multiple * typical;
  console.log(
    `| ${r.c.parser} | ${r.c.shape} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.msPerParse.toFixed(2)} | ${r.perMiB.toFixed(1)} | ${r.best.toFixed(1)} | ${r.cpuPerMiB.toFixed(1)} | ${r.multiple.toFixed(2)} | ${judged.toFixed(1)} | ${judged <= 50 ? 'met' : '**missed**'} |`,
  );
}
// The old scanner on the first HTML case: 1/16 of the size, since it is quadratic.
const html = WORST_CASES[0] as { make(bytes: number): unknown };
for (const size of only ? [] : [MIB / 16, MIB / 8]) {
  const input = html.make(size) as string;
  const ms = medianMs(() => oldScanHtml(input), 3);
  console.log(
    `| before: the regex HTML scanner | raw-text elements back to back | ${(input.length / 1024).toFixed(0)} KiB | ${ms.toFixed(2)} | ${((ms * MIB) / input.length).toFixed(0)} | — | — | — | — | missed |`,
  );
}
console.log(`load average at the end: ${load()}, yardstick ${yardstickMs().toFixed(1)} ms/MiB`);
dispose();
