/**
 * GET /api/v1/headers throughput and p99: netdiag (Express 5 + CORS + limits + access log)
 * against a bare node:http server returning the same JSON, same run, same load.
 * Run: npx --yes pnpm@10 build && npx tsx bench/headers/headers.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { load, startChild, table } from '../lib.js';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const duration = Number(process.env.BENCH_DURATION_S ?? 10);

const rows = [];
for (const [name, script] of [
  ['bare node:http', here('./bare-server.ts')],
  ['bare Express 5 route', here('./express-server.ts')],
  ['netdiag /api/v1/headers', here('./netdiag-server.ts')],
] as const) {
  const server = await startChild(script);
  await load(`${name} (warm-up)`, { url: `${server.url}/api/v1/headers`, duration: 2 });
  rows.push(await load(name, { url: `${server.url}/api/v1/headers`, duration }));
  await server.stop();
}
console.log(table(rows));
const [bare, expressFloor, ours] = rows;
if (bare && expressFloor && ours) {
  console.log(`\nnetdiag / bare node:http throughput ratio: ${(ours.rps / bare.rps).toFixed(2)}`);
  console.log(
    `netdiag / bare Express 5 throughput ratio: ${(ours.rps / expressFloor.rps).toFixed(2)}`,
  );
}
