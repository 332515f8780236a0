/**
 * A plain `net` server on loopback in front of a real TLS server, for the TLS checker's limits:
 * it counts the connections netdiag makes (each one is a handshake) and how many are open at
 * once, and it can answer netdiag's own hand-made TLS 1.2 ClientHello (the served-chain reader)
 * with hand-built records (a ServerHello and a Certificate message of any size), while every
 * OpenSSL handshake (Node's) is piped to the real server and succeeds.
 * @module
 */
import net from 'node:net';

export interface RawTlsServer {
  port: number;
  /** Connections accepted so far: one per handshake. */
  readonly connections: number;
  /** The most handshakes under way at the same moment. */
  readonly maxConcurrent: number;
  /** Connections answered with the hand-built flight. */
  readonly handMade: number;
  close(): Promise<void>;
}

export interface RawTlsServerOptions {
  /** The real TLS server (e.g. `openssl s_server`) that OpenSSL's handshakes are piped to. */
  backendPort?: number;
  /** What to answer a ClientHello without extended_master_secret (netdiag's own) with. */
  handMadeAnswer?: Buffer;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u24(n: number): Buffer {
  return Buffer.from([(n >> 16) & 255, (n >> 8) & 255, n & 255]);
}

/** A handshake stream cut into records of at most 2^14 bytes (RFC 5246 §6.2.1). */
export function handshakeRecords(stream: Buffer): Buffer {
  const records: Buffer[] = [];
  for (let at = 0; at < stream.length; at += 1 << 14) {
    const fragment = stream.subarray(at, Math.min(at + (1 << 14), stream.length));
    records.push(Buffer.from([0x16, 0x03, 0x03]), u16(fragment.length), fragment);
  }
  return Buffer.concat(records);
}

/** One handshake message: type(1), 24-bit length, body (RFC 5246 §7.4). */
export function handshakeMessage(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type]), u24(body.length), body]);
}

/** A ServerHello (§7.4.1.3): TLS 1.2, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, no extensions. */
export function serverHello(): Buffer {
  return handshakeMessage(
    2,
    Buffer.concat([
      u16(0x0303),
      Buffer.alloc(32, 7),
      Buffer.from([0]),
      u16(0xc02f),
      Buffer.from([0]),
    ]),
  );
}

/** ServerHello and a Certificate message (§7.4.2) with these certificates (DER), in records. */
export function certificateFlight(certificates: readonly Buffer[]): Buffer {
  const list = Buffer.concat(certificates.flatMap((c) => [u24(c.length), c]));
  return handshakeRecords(
    Buffer.concat([serverHello(), handshakeMessage(11, Buffer.concat([u24(list.length), list]))]),
  );
}

/**
 * ServerHello and a Certificate message of as many copies of `certificate` (DER) as fit in a
 * body of `messageBytes` (at most 2^24 - 1, the 24-bit length field), in records.
 */
export function oversizedCertificateFlight(certificate: Buffer, messageBytes: number): Buffer {
  const entry = Buffer.concat([u24(certificate.length), certificate]);
  const count = Math.floor((messageBytes - 3) / entry.length);
  const list = Buffer.alloc(count * entry.length);
  for (let i = 0; i < count; i++) entry.copy(list, i * entry.length);
  return handshakeRecords(
    Buffer.concat([serverHello(), handshakeMessage(11, Buffer.concat([u24(list.length), list]))]),
  );
}

/**
 * Whether a first record is a ClientHello that lacks extended_master_secret (RFC 7627, type 23):
 * OpenSSL 3 always sends it, netdiag's hand-made ClientHello does not.
 */
function isHandMadeHello(record: Buffer): boolean {
  if (record[0] !== 0x16 || record[5] !== 1) return false;
  let at = 5 + 4 + 2 + 32;
  at += 1 + (record[at] ?? 0); // session id
  at += 2 + record.readUInt16BE(at); // cipher suites
  at += 1 + (record[at] ?? 0); // compression methods
  const end = at + 2 + record.readUInt16BE(at);
  for (at += 2; at + 4 <= end; at += 4 + record.readUInt16BE(at + 2)) {
    if (record.readUInt16BE(at) === 0x0017) return false;
  }
  return true;
}

export async function startRawTlsServer(options: RawTlsServerOptions): Promise<RawTlsServer> {
  const flight = options.handMadeAnswer ?? null;
  let connections = 0;
  let open = 0;
  let maxConcurrent = 0;
  let handMade = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections++;
    sockets.add(client);
    // A handshake is under way from its first byte (the ClientHello) to the client's FIN or
    // reset: a client closing one connection may already be connecting the next (Node closes
    // the old descriptor at the end of the loop iteration), but it sends nothing on it yet.
    let counted = false;
    let ended = false;
    client.once('data', () => {
      if (ended) return;
      counted = true;
      open++;
      maxConcurrent = Math.max(maxConcurrent, open);
    });
    const end = () => {
      if (ended) return;
      ended = true;
      if (counted) open--;
    };
    client.on('end', end);
    client.on('close', () => {
      end();
      sockets.delete(client);
    });
    client.on('error', () => {});
    let first = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      first = Buffer.concat([first, chunk]);
      if (first.length < 5 || first.length < 5 + first.readUInt16BE(3)) return;
      client.off('data', onData);
      if (flight && isHandMadeHello(first)) {
        handMade++;
        client.end(flight);
        return;
      }
      if (options.backendPort === undefined) return void client.destroy();
      const backend = net.connect({ host: '127.0.0.1', port: options.backendPort });
      sockets.add(backend);
      backend.on('close', () => sockets.delete(backend));
      backend.on('error', () => client.destroy());
      client.on('close', () => backend.destroy());
      backend.write(first);
      client.pipe(backend);
      backend.pipe(client);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get connections() {
      return connections;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    get handMade() {
      return handMade;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
