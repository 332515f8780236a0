/**
 * Mounting the netdiag API inside an existing Express 5 app: your middleware stays yours; the
 * router brings the endpoints, their parameter checks and the JSON error envelope. It reads the
 * same NETDIAG_* environment as the server (options passed here override it), and serves its
 * OpenAPI document at /diag/api/openapi.json with /diag as the server URL.
 * Run: NETDIAG_DNS_SERVERS=127.0.0.1:5353 npx tsx examples/express-server/index.ts
 */
import { createRouter } from '@netdiag/http';
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.send('my app; diagnostics under /diag/api/…');
});
app.use('/diag', createRouter({ logLevel: 'warn' }));
app.listen(3000, '127.0.0.1', () => console.log('listening on http://127.0.0.1:3000'));
