/** Bare node:http calling the same core lookup and shape as GET /api/lookup. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadIpDatasets, lookupAnswer } from '@netdiag/core';

const datasets = await loadIpDatasets({ cacheDir: process.env['NETDIAG_CACHE_DIR'] });
const server = http.createServer((req, res) => {
  const ip = new URL(req.url ?? '/', 'http://x').searchParams.get('ip') ?? '';
  const data = lookupAnswer(datasets.lookup(ip));
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
  });
  res.end(JSON.stringify({ success: true, data }));
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
