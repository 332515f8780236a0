/**
 * The certificate list exactly as the server sends it, in its order, read from a TLS 1.2
 * handshake made by hand (RFC 5246 §7.4.1.2 ClientHello, §7.4.2 Certificate): Node links the
 * certificates it receives by issuer, which hides a misordered chain. TLS 1.3 encrypts the
 * Certificate message (RFC 8446 §2), so a server that speaks only TLS 1.3 gives no answer here
 * and the order stays unknown. Only the handshake's first flight is read; the connection is
 * closed before any key exchange.
 * @module
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** Suites a TLS 1.0–1.2 server of any age accepts at least one of (IANA codes). */
const SUITES = [
  0xc02f, 0xc030, 0xc02b, 0xc02c, 0xcca8, 0xcca9, 0xc013, 0xc014, 0xc009, 0xc00a, 0xc027, 0xc028,
  0xc023, 0xc024, 0x009e, 0x009f, 0x0033, 0x0039, 0x0067, 0x006b, 0x009c, 0x009d, 0x002f, 0x0035,
  0x003c, 0x003d, 0x000a, 0x0005, 0x00ff,
];
/** x25519, secp256r1, secp384r1, secp521r1, ffdhe2048 (RFC 8422, RFC 7919). */
const GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x0100];
/** RSA-PKCS1, ECDSA and RSA-PSS with SHA-256/384/512, then SHA-1 (RFC 5246 §7.4.1.4.1, RFC 8446). */
const SIGNATURES = [
  0x0401, 0x0501, 0x0601, 0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0201, 0x0203,
];

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u24(n: number): Buffer {
  return Buffer.from([(n >> 16) & 255, (n >> 8) & 255, n & 255]);
}
function vector16(body: Buffer): Buffer {
  return Buffer.concat([u16(body.length), body]);
}
function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), vector16(body)]);
}

export function clientHello(servername: string | undefined): Buffer {
  const extensions = [
    ...(servername
      ? [
          extension(
            0x0000,
            vector16(Buffer.concat([Buffer.from([0]), vector16(Buffer.from(servername, 'ascii'))])),
          ),
        ]
      : []),
    extension(0x000a, vector16(Buffer.concat(GROUPS.map(u16)))),
    extension(0x000b, Buffer.from([1, 0])),
    extension(0x000d, vector16(Buffer.concat(SIGNATURES.map(u16)))),
  ];
  const body = Buffer.concat([
    u16(0x0303),
    randomBytes(32),
    Buffer.from([0]), // no session id
    vector16(Buffer.concat(SUITES.map(u16))),
    Buffer.from([1, 0]), // compression: null only
    vector16(Buffer.concat(extensions)),
  ]);
  const handshake = Buffer.concat([Buffer.from([1]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01]), vector16(handshake)]);
}

/**
 * The DER certificates of the server's Certificate message, in order, or `null` when the server
 * answered with an alert, ended the connection, or did not send one in `timeoutMs`.
 */
export function readServedCertificates(
  address: string,
  port: number,
  servername: string | undefined,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Buffer[] | null> {
  return new Promise((resolve) => {
    let records = Buffer.alloc(0);
    let handshake = Buffer.alloc(0);
    let done = false;
    const finish = (value: Buffer[] | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(value);
    };
    const onAbort = () => finish(null);
    const timer = setTimeout(() => finish(null), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    const socket = net.connect({ host: address, port }, () =>
      socket.write(clientHello(servername)),
    );
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
    socket.on('data', (chunk: Buffer) => {
      records = Buffer.concat([records, chunk]);
      // Records: type(1) version(2) length(2) fragment (RFC 5246 §6.2.1).
      while (records.length >= 5) {
        const length = records.readUInt16BE(3);
        if (records.length < 5 + length) break;
        const type = records[0];
        const fragment = records.subarray(5, 5 + length);
        records = records.subarray(5 + length);
        if (type !== 0x16) return finish(null); // an alert, or anything else: no certificates
        handshake = Buffer.concat([handshake, fragment]);
      }
      // Handshake messages: type(1) length(3) body, possibly split across records.
      while (handshake.length >= 4) {
        const length = handshake.readUIntBE(1, 3);
        if (handshake.length < 4 + length) return;
        const type = handshake[0];
        const body = handshake.subarray(4, 4 + length);
        handshake = handshake.subarray(4 + length);
        if (type === 11) return finish(parseCertificateList(body));
        if (type === 14) return finish([]); // ServerHelloDone without a Certificate (anonymous)
      }
    });
  });
}

function parseCertificateList(body: Buffer): Buffer[] | null {
  if (body.length < 3) return null;
  const total = body.readUIntBE(0, 3);
  const certs: Buffer[] = [];
  let at = 3;
  while (at + 3 <= 3 + total && at + 3 <= body.length) {
    const length = body.readUIntBE(at, 3);
    if (at + 3 + length > body.length) return null;
    certs.push(body.subarray(at + 3, at + 3 + length));
    at += 3 + length;
  }
  return certs;
}
