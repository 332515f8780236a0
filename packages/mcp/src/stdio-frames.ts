/**
 * A size cap on stdio frames (one JSON-RPC message per line, MCP "Transports": stdio), applied
 * before the SDK's stdio transport reads them. The SDK keeps a line in memory up to 10 MiB and
 * past that closes the transport, so the server went silent for good; here a longer line is
 * dropped as it streams in, answered with a JSON-RPC error quoting only its start, and the next
 * line is read as usual.
 * @module
 */
import { Transform, type TransformCallback } from 'node:stream';

/**
 * 1 MiB per frame: some 400 times the largest tool call (`bulk_lookup` with 50 IPv6 addresses,
 * ~2.5 KiB); the HTTP face takes bodies of 16 KiB at most.
 */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** How much of a refused line its error quotes. */
export const QUOTED_CHARS = 80;

/** The first `QUOTED_CHARS` characters of a line; up to 4 bytes a character in UTF-8. */
function startOf(pieces: readonly Buffer[]): string {
  const bytes = Math.min(
    QUOTED_CHARS * 4,
    pieces.reduce((sum, piece) => sum + piece.length, 0),
  );
  return Buffer.concat(pieces, bytes).toString('utf8').slice(0, QUOTED_CHARS);
}

/**
 * Passes complete lines of at most `maxBytes` (newline not counted) through unchanged, and for
 * a longer line calls `onOversized` with its start once, then drops it up to its newline.
 */
export function capFrames(maxBytes: number, onOversized: (start: string) => void): Transform {
  /** The current line so far (it has no newline yet). */
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Inside a refused line: dropping bytes up to its newline. */
  let dropping = false;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        const lineEnd = newline === -1 ? end : newline;
        const lineBytes = heldBytes + lineEnd - start;
        if (dropping) {
          dropping = newline === -1;
        } else if (lineBytes > maxBytes) {
          onOversized(startOf([...held, chunk.subarray(start, lineEnd)]));
          held = [];
          heldBytes = 0;
          dropping = newline === -1;
        } else if (newline === -1) {
          held.push(piece);
          heldBytes += piece.length;
        } else {
          this.push(held.length === 0 ? piece : Buffer.concat([...held, piece]));
          held = [];
          heldBytes = 0;
        }
        start = end;
      }
      done();
    },
    flush(done: TransformCallback) {
      // A last line without its newline goes on as it would have without the cap.
      if (held.length > 0) this.push(Buffer.concat(held));
      done();
    },
  });
}

/** A JSON-RPC error answer tied to no request (JSON-RPC 2.0 §5: `id` is null). */
export function jsonRpcError(code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;
}

/** JSON-RPC 2.0 §5.1. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The answer to a line over the cap. */
export function oversizedFrameError(start: string, maxBytes: number = MAX_FRAME_BYTES): string {
  return jsonRpcError(
    INVALID_REQUEST,
    `Message too large: lines longer than ${maxBytes} bytes are not read; this one began ${JSON.stringify(start)}…`,
  );
}
