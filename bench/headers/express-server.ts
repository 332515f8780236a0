/** The framework floor: a bare Express 5 route answering the same JSON as /api/v1/headers. */
import type { AddressInfo } from 'node:net';
import express from 'express';

const app = express();
app.get('/api/v1/headers', (req, res) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  res.set('access-control-allow-origin', '*');
  res.json({
    success: true,
    data: {
      method: req.method,
      url: `${req.protocol}://${req.get('host')}${req.originalUrl}`,
      headers,
      ip: req.ip,
    },
  });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
