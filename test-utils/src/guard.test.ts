import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { isLoopback, takeViolations } from './guard.js';

// Every attempt below must be stopped before a packet leaves: the guard throws synchronously.
// The addresses are documentation ranges (RFC 5737, RFC 3849), so even a broken guard would
// not reach a real host.
afterEach(() => {
  takeViolations();
});

describe('network guard', () => {
  test('isLoopback', () => {
    for (const ok of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(ok)).toBe(true);
    for (const bad of [
      '192.0.2.1',
      '10.0.0.1',
      '::',
      '2001:db8::1',
      'example.com',
      '169.254.169.254',
    ])
      expect(isLoopback(bad)).toBe(false);
  });

  test('blocks TCP connects outside loopback', () => {
    expect(() => net.connect({ host: '192.0.2.1', port: 80 })).toThrow(
      /blocked TCP connect to 192\.0\.2\.1/,
    );
    expect(() => net.connect(80, '2001:db8::1')).toThrow(/blocked TCP connect/);
    expect(takeViolations()).toHaveLength(2);
  });

  test('blocks UDP sends and DNS lookups outside loopback', () => {
    const socket = dgram.createSocket('udp4');
    try {
      expect(() => socket.send(Buffer.from('x'), 53, '192.0.2.53')).toThrow(
        /blocked UDP send to 192\.0\.2\.53/,
      );
    } finally {
      socket.close();
    }
    expect(() => dns.lookup('example.com', () => {})).toThrow(/blocked DNS lookup of example\.com/);
    expect(() => dns.promises.lookup('example.com')).toThrow(/blocked DNS lookup/);
  });

  test('blocks c-ares resolvers pointed at non-loopback servers', () => {
    const resolver = new dns.promises.Resolver();
    resolver.setServers(['192.0.2.53']);
    expect(() => resolver.resolve4('example.com')).toThrow(/blocked DNS query to 192\.0\.2\.53/);
  });

  test('a name with a custom lookup is judged by the addresses it returns', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const lookupTo =
      (address: string): net.LookupFunction =>
      (_name, options, callback) =>
        options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
    const attempt = (address: string) =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host: 'svc.test', port, lookup: lookupTo(address) }, () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
      });
    try {
      await attempt('127.0.0.1');
      expect(takeViolations()).toEqual([]);
      await expect(attempt('192.0.2.1')).rejects.toThrow(
        /blocked TCP connect to svc\.test \(192\.0\.2\.1\)/,
      );
      expect(takeViolations()).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  test('allows loopback', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    server.close();
    expect(takeViolations()).toEqual([]);
  });
});
