/**
 * A reference between the floor and the API: a bare Express 5 route (ETag off) answering the
 * same lookup and envelope as GET /api/lookup, with none of the API's middleware (no CORS, limits,
 * request ids, metrics). What any Express app doing this lookup pays.
 */
import type { AddressInfo } from 'node:net';
import { loadIpDatasets, lookupAnswer } from '@netdiag/core';
import express from 'express';

const datasets = await loadIpDatasets({ cacheDir: process.env['NETDIAG_CACHE_DIR'] });
const app = express();
app.set('etag', false);
app.get('/api/lookup', (req, res) => {
  const data = lookupAnswer(datasets.lookup(String(req.query['ip'] ?? '')));
  res.json({ success: true, data });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
