/**
 * The certificate list in the server's order, from the first flight of a TLS 1.2 handshake made
 * by hand (RFC 5246 §7.4.1.2, §7.4.2): Node links what it receives by issuer, which hides a
 * misordered chain. TLS 1.3 encrypts the Certificate message (RFC 8446 §2).
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

const u16 = (n: number) => Buffer.from([(n >> 8) & 255, n & 255]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 255, (n >> 8) & 255, n & 255]);
const vector16 = (body: Buffer) => Buffer.concat([u16(body.length), body]);
const extension = (type: number, body: Buffer) => Buffer.concat([u16(type), vector16(body)]);

function clientHello(servername: string | undefined): Buffer {
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
 * The largest Certificate message read: OpenSSL's default `max_cert_list` (100 KiB,
 * SSL_CTX_set_max_cert_list(3)), which Node's own handshakes apply too.
 */
export const MAX_CERTIFICATE_MESSAGE = 100 * 1024;
/** Certificates kept from the message; real chains have 2 to 4 (leaf, intermediates, root). */
export const MAX_REPORTED_CERTIFICATES = 10;
/** A record's fragment is at most 2^14 bytes (RFC 5246 §6.2.1, RFC 8446 §5.1). */
const MAX_RECORD = 2 ** 14;
/** Everything read before the Certificate message ends: ServerHello (small) and the message. */
const MAX_FLIGHT = MAX_CERTIFICATE_MESSAGE + 16 * 1024;

export type ServedChain =
  /** The first MAX_REPORTED_CERTIFICATES certificates (DER, in order) and how many were sent. */
  | { certificates: Buffer[]; sent: number }
  /** Stopped reading: the server sent more than the limits allow (said in words). */
  | { overLimit: string };

const bytes = (n: number) => n.toLocaleString('en-US');

/**
 * The server's Certificate message, or `null` (an alert, the connection ended, nothing in
 * `timeoutMs`). A record or message over the limits above stops the reading at once.
 */
export function readServedCertificates(
  address: string,
  port: number,
  servername: string | undefined,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ServedChain | null> {
  return new Promise((resolve) => {
    let received = 0;
    let records = Buffer.alloc(0);
    let handshake = Buffer.alloc(0);
    let done = false;
    const finish = (value: ServedChain | null) => {
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
      received += chunk.length;
      // Records: type(1) version(2) length(2) fragment (RFC 5246 §6.2.1).
      records = Buffer.concat([records, chunk]);
      while (records.length >= 5) {
        if (records[0] !== 0x16) return finish(null); // an alert, or anything else: no certificates
        const length = records.readUInt16BE(3);
        if (length > MAX_RECORD) {
          return finish({
            overLimit: `The server sent a TLS record of ${bytes(length)} bytes, over the 16,384 bytes a record may hold (RFC 5246 §6.2.1); netdiag stopped reading`,
          });
        }
        if (records.length < 5 + length) break;
        handshake = Buffer.concat([handshake, records.subarray(5, 5 + length)]);
        records = records.subarray(5 + length);
      }
      // Handshake messages: type(1) length(3) body, possibly split across records.
      while (handshake.length >= 4) {
        const type = handshake[0];
        const length = handshake.readUIntBE(1, 3);
        if (length > MAX_CERTIFICATE_MESSAGE) {
          const what = type === 11 ? 'Certificate message' : `handshake message (type ${type})`;
          return finish({
            overLimit: `The server's TLS 1.2 ${what} is ${bytes(length)} bytes, over netdiag's limit of ${bytes(MAX_CERTIFICATE_MESSAGE)} bytes (OpenSSL's default max_cert_list, which Node's handshakes apply too); netdiag stopped reading and closed the connection, so the order of the chain as sent is unknown`,
          });
        }
        if (handshake.length < 4 + length) break;
        const body = handshake.subarray(4, 4 + length);
        handshake = handshake.subarray(4 + length);
        if (type === 11) return finish(parseCertificateList(body));
        if (type === 14) return finish({ certificates: [], sent: 0 }); // ServerHelloDone, no Certificate (anonymous)
      }
      if (received > MAX_FLIGHT) {
        return finish({
          overLimit: `The server sent more than ${bytes(MAX_FLIGHT)} bytes before the end of its TLS 1.2 Certificate message; netdiag stopped reading`,
        });
      }
    });
  });
}

/** The list of RFC 5246 §7.4.2: 24-bit total, then 24-bit length + DER per certificate. */
function parseCertificateList(body: Buffer): ServedChain | null {
  if (body.length < 3) return null;
  const end = Math.min(3 + body.readUIntBE(0, 3), body.length);
  const certificates: Buffer[] = [];
  let sent = 0;
  let at = 3;
  while (at + 3 <= end) {
    const length = body.readUIntBE(at, 3);
    if (at + 3 + length > end) return null;
    if (sent < MAX_REPORTED_CERTIFICATES) certificates.push(body.subarray(at + 3, at + 3 + length));
    sent++;
    at += 3 + length;
  }
  return { certificates, sent };
}
