/** A tiny HTTP target for the site benchmark, in its own process (IPC: { url }). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from('<!doctype html><title>bench</title><p>ok</p>');
const server = http.createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'text/html',
    'content-length': body.length,
    server: 'bench',
  });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
