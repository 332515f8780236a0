/**
 * A UDP relay that holds every DNS answer for BENCH_DELAY_MS before passing it back: the round
 * trip of a network between the client and the server (loopback has none, so there the client's
 * CPU time is all a "round trip" measures). Runs as a child process of nsd.bench.ts, so its own
 * work does not count as the client's. Loopback only: it forwards to the server it is given.
 * Each client port gets its own upstream socket, so answers find their way back by port alone.
 */
import { createSocket, type Socket } from 'node:dgram';

const [upstreamHost, upstreamPort] = (process.env.BENCH_UPSTREAM ?? '').split(':');
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 5);
if (upstreamHost !== '127.0.0.1' || !upstreamPort)
  throw new Error('BENCH_UPSTREAM must be 127.0.0.1:port');

const front = createSocket('udp4');
const upstreams = new Map<string, Socket>();
front.on('message', (query, client) => {
  const key = `${client.address}:${client.port}`;
  let up = upstreams.get(key);
  if (up === undefined) {
    const socket = createSocket('udp4');
    socket.on('message', (answer) => {
      setTimeout(() => front.send(answer, client.port, client.address), delayMs);
    });
    socket.bind(0, '127.0.0.1');
    upstreams.set(key, socket);
    up = socket;
  }
  up.send(query, Number(upstreamPort), upstreamHost);
});
front.bind(0, '127.0.0.1', () => {
  process.send?.({ port: front.address().port });
});
process.on('disconnect', () => process.exit(0));
