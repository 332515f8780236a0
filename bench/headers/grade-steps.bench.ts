/**
 * The longest synchronous step of the security-headers grade on each worst-case page
 * (packages/core/test/adversarial/pages.ts: the HTML worst cases, each CSP worst case as a
 * `<meta>` policy, thousands of external scripts), served whole from a loopback server: issue
 * 20 item 1 asks for no synchronous step over 50 ms per MiB of remote input, and the grade reads
 * the page, then runs fourteen checks on it. A chain of `setImmediate` callbacks runs beside the
 * grade; the longest gap between two of them is the longest time the process could not answer
 * anything else (the page's arrival, its reading, one check). Median of 7 grades per page, each
 * between two runs of the yardstick of bench/parsers (V8's `JSON.parse` of a fixed 1 MiB
 * document), and judged as there: the multiple of the yardstick at that moment, times the
 * yardstick's median over the whole run. Each request gets a page of its own (a comment with a
 * count in front): the page reader keeps the last page's facts, and a page read again would skip
 * its reading.
 * Run: npx --yes pnpm@10 build && npx tsx bench/headers/grade-steps.bench.ts
 * BENCH_CORE=<path to a build's dist/index.js> grades with that build instead (before/after).
 * BENCH_ONLY=<text> keeps the pages whose shape contains the text.
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { WORST_PAGES } from '../../packages/core/test/adversarial/pages.js';
import { MIB, median, overTheRun, yardstickOnce } from '../yardstick.js';

installNetworkGuard();

const core = (await import(
  process.env.BENCH_CORE ? pathToFileURL(process.env.BENCH_CORE).href : '@netdiag/core'
)) as typeof import('@netdiag/core');

const RUNS = 7;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

// Room for the count in front: the page stays within the 1 MiB the grade reads.
const pages = WORST_PAGES.map((page) => ({ page, body: Buffer.from(page.make(MIB - 64)) }));
let current = Buffer.alloc(0);
let served = 0;
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(Buffer.concat([Buffer.from(`<!--${++served}-->`), current]));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

/** One grade of the current page; the longest gap between two turns of the loop, in ms. */
async function longestStep(): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let grading = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (grading) setImmediate(tick);
  };
  setImmediate(tick);
  const result = await core.gradeSecurityHeaders(url, {
    allowedTargets: ['127.0.0.1/32'],
    checkRedirection: false,
  });
  grading = false;
  await new Promise((resolve) => setImmediate(resolve));
  if (result.note?.includes('only the first')) throw new Error('the page did not fit in 1 MiB');
  return longest;
}

console.log(
  `${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load average ${load()}${process.env.BENCH_CORE ? `, build ${process.env.BENCH_CORE}` : ''}`,
);
const only = process.env.BENCH_ONLY;
const rows: { shape: string; aims: string; bytes: number; ms: number; multiple: number }[] = [];
const yardsticks: number[] = [];
for (const { page, body } of pages) {
  if (only && !page.shape.includes(only)) continue;
  current = body;
  await longestStep(); // warm-up
  const steps: number[] = [];
  const multiples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const before = yardstickOnce();
    const step = await longestStep();
    const after = yardstickOnce();
    yardsticks.push(before, after);
    steps.push(step);
    multiples.push((step * MIB) / body.length / ((before + after) / 2));
  }
  rows.push({
    shape: page.shape,
    aims: page.aims,
    bytes: body.length,
    ms: median(steps),
    multiple: median(multiples),
  });
}
server.close();
const { typical, line } = overTheRun(yardsticks, 'grades');
console.log(line);
console.log(
  "| page | aims at | size | longest step, ms (median) | ms per MiB | × JSON.parse beside it (median) | ms per MiB at the run's median speed | target ≤ 50 ms/MiB |",
);
console.log('|---|---|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  const judged = r.multiple * typical;
  console.log(
    `| ${r.shape} | ${r.aims} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.ms.toFixed(1)} | ${((r.ms * MIB) / r.bytes).toFixed(1)} | ${r.multiple.toFixed(2)} | ${judged.toFixed(1)} | ${judged <= 50 ? 'met' : '**missed**'} |`,
  );
}
console.log(`load average at the end: ${load()}`);
