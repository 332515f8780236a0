/**
 * The server's resolver address stays private: a DNS failure tells the API client what went
 * wrong ("cannot reach the DNS server", "answered SERVFAIL") without the resolver's address or
 * port (issue 15: the CLI names the server, the API must not).
 */
import { freePort, startDnsServer, startHttpTarget } from '@netdiag/test-utils';
import { expect, test } from 'vitest';
import { startLoopbackApp } from './loopback-app.js';

async function askDns(dnsAddress: string): Promise<{ status: number; message: string }> {
  const upstream = await startHttpTarget({ routes: {} });
  const app = await startLoopbackApp({ dnsAddress, upstreamUrl: upstream.url });
  try {
    const res = await fetch(`${app.base}/api/dns?domain=example.com`);
    const body = (await res.json()) as { error: string };
    return { status: res.status, message: body.error };
  } finally {
    await app.close();
    await upstream.close();
  }
}

test('an unreachable resolver: 502 that says so without its address', async () => {
  const port = await freePort();
  const { status, message } = await askDns(`127.0.0.1:${port}`);
  expect(status).toBe(502);
  expect(message).toBe(
    'Upstream dns failed: cannot reach the DNS server: connection refused (nothing listens on that port)',
  );
  expect(message).not.toContain(String(port));
  expect(message).not.toContain('127.0.0.1');
});

test('a resolver answering SERVFAIL: 502 naming the rcode, not the server', async () => {
  const dns = await startDnsServer({ zone: {}, onQuery: () => 'servfail' });
  try {
    const { status, message } = await askDns(dns.address);
    expect(status).toBe(502);
    expect(message).toBe('Upstream dns failed: the DNS server answered SERVFAIL for example.com A');
    expect(message).not.toContain(String(dns.port));
  } finally {
    await dns.close();
  }
});
