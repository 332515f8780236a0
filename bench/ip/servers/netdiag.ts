/**
 * The netdiag API (limits raised out of the way); reports when the IP data is loaded.
 * BENCH_HTTP_ENTRY: another build's `@netdiag/http` entry (dist/index.js), for before/after runs.
 */
const { startServer } = (await import(
  process.env['BENCH_HTTP_ENTRY'] ?? '@netdiag/http'
)) as typeof import('@netdiag/http');

const started = await startServer({
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  rateLimit: 1_000_000_000,
  toolRateLimit: 1_000_000_000,
  cacheDir: process.env['NETDIAG_CACHE_DIR'],
  torExitListUrl: 'http://127.0.0.1:9/torbulkexitlist',
});
process.send?.({ url: started.url });
process.on('SIGTERM', () => void started.close().then(() => process.exit(0)));
const ctx = started.app.locals.netdiag as {
  engine?: { datasets(): Promise<unknown> };
  services: Map<string, unknown>;
};
// This build's engine, or an older build's ip-data service: start loading either way.
void (
  ctx.engine?.datasets() ??
  (ctx.services.get('ip-data') as { datasets(): Promise<unknown> } | undefined)?.datasets()
);
