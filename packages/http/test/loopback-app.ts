/**
 * An app listening on loopback with every upstream pointed at loopback fixtures, for the tests
 * that drive the whole API over real HTTP (fuzz, faults).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CreateAppOptions, createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { expressObjectClasses } from '../src/express-objects.js';

export interface LoopbackApp {
  base: string;
  close(): Promise<void>;
}

export async function startLoopbackApp(
  options: CreateAppOptions & { dnsAddress: string; upstreamUrl: string },
): Promise<LoopbackApp> {
  const { dnsAddress, upstreamUrl, ...rest } = options;
  const app = createApp({
    logLevel: 'silent',
    dnsServers: [dnsAddress],
    rdapBootstrapUrl: `${upstreamUrl}/dns.json`,
    whoisServer: '127.0.0.1:1',
    breachApiUrl: upstreamUrl,
    torExitListUrl: `${upstreamUrl}/tor`,
    ...rest,
  });
  // The server as startServer makes it (express-objects.ts), so that these tests meet the same
  // request objects as production.
  const server = createServer(expressObjectClasses(app), app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await closeContext(app.locals.netdiag);
    },
  };
}
