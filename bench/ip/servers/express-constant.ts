/** The framework's floor: a bare Express 5 route answering a constant body of the same size. */
import type { AddressInfo } from 'node:net';
import express from 'express';

const body = process.env['BENCH_BODY'] ?? '{}';
const app = express();
// netdiag turns ETag off (app.ts): the floor must not pay for hashing every body either.
app.set('etag', false);
app.get('/api/lookup', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
