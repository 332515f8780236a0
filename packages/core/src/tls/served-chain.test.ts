/**
 * The TLS 1.2 served-chain reader against hand-built answers from a raw `net` server on
 * loopback: its limits on records, on the Certificate message and on the certificates kept.
 * The "certificates" are opaque bytes: the reader splits the list, it does not parse X.509.
 */
import {
  certificateFlight,
  handshakeMessage,
  handshakeRecords,
  oversizedCertificateFlight,
  type RawTlsServer,
  serverHello,
  startRawTlsServer,
  startStallMeter,
} from '@netdiag/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { readServedCertificates } from './served-chain.js';

let server: RawTlsServer | undefined;
afterEach(() => server?.close());

async function read(answer: Buffer) {
  server = await startRawTlsServer({ handMadeAnswer: answer });
  return readServedCertificates(
    '127.0.0.1',
    server.port,
    'tls.test',
    5000,
    new AbortController().signal,
  );
}

const fake = (i: number) => Buffer.from(`certificate number ${i}`);

describe('readServedCertificates', () => {
  test('a usual chain: every certificate, in the order sent', async () => {
    const result = await read(certificateFlight([fake(1), fake(2), fake(3)]));
    expect(result).toEqual({ certificates: [fake(1), fake(2), fake(3)], sent: 3 });
  });

  test('more than 10 certificates: the first 10 kept, all of them counted', async () => {
    const sent = Array.from({ length: 12 }, (_, i) => fake(i));
    const result = await read(certificateFlight(sent));
    expect(result).toEqual({ certificates: sent.slice(0, 10), sent: 12 });
  });

  test('a 16 MiB Certificate message: refused in words at its header, promptly, no stall', {
    timeout: 30_000,
  }, async () => {
    const answer = oversizedCertificateFlight(Buffer.alloc(400, 0x30), 2 ** 24 - 1);
    const meter = startStallMeter();
    const started = performance.now();
    const result = await read(answer);
    const ms = performance.now() - started;
    const loop = meter.stop();
    expect(result).toEqual({
      overLimit: expect.stringMatching(
        /^The server's TLS 1\.2 Certificate message is 16,77\d,\d{3} bytes, over netdiag's limit of 102,400 bytes/,
      ),
    });
    expect(ms).toBeLessThan(1000);
    expect(loop.busyMs).toBeLessThan(100);
  });

  test('a record longer than 2^14 bytes is refused (RFC 5246 §6.2.1)', async () => {
    const record = Buffer.concat([Buffer.from([0x16, 3, 3, 0x40, 0x01]), Buffer.alloc(0x4001)]);
    expect(await read(record)).toEqual({
      overLimit: expect.stringMatching(/record of 16,385 bytes, over the 16,384 bytes .*6\.2\.1/),
    });
  });

  test('endless small messages before any Certificate: reading stops past the limit', async () => {
    // Handshake messages of an unassigned type (99), 1 KiB each, 200 of them: 200 KiB.
    const junk = Array.from({ length: 200 }, () => handshakeMessage(99, Buffer.alloc(1024)));
    const result = await read(handshakeRecords(Buffer.concat([serverHello(), ...junk])));
    expect(result).toEqual({
      overLimit: expect.stringMatching(/^The server sent more than 118,784 bytes before/),
    });
  });

  test('ServerHelloDone without a Certificate (anonymous suites): none', async () => {
    const result = await read(
      handshakeRecords(Buffer.concat([serverHello(), handshakeMessage(14, Buffer.alloc(0))])),
    );
    expect(result).toEqual({ certificates: [], sent: 0 });
  });
});
