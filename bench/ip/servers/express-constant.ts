/**
 * The framework's floor: a bare Express 5 route answering a constant body of the same size.
 * BENCH_BORN=1: the same app served by a node:http server that makes its requests and responses
 * with the app's prototypes (`expressObjectClasses`, as netdiag's `startServer` does).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressObjectClasses } from '@netdiag/http';
import express from 'express';

const body = process.env['BENCH_BODY'] ?? '{}';
const app = express();
// netdiag turns ETag off (app.ts): the floor must not pay for hashing every body either.
app.set('etag', false);
app.get('/api/lookup', (_req, res) => {
  res.type('application/json').send(body);
});
const server =
  process.env['BENCH_BORN'] === '1'
    ? createServer(expressObjectClasses(app), app)
    : createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
