/**
 * A loopback WHOIS server (RFC 3912: one query line, one answer, then close) for tests and
 * benchmarks. Answers come from a map or a function of the query; an answer can also be
 * delayed, withheld ('hang'), endless ('flood') or raw bytes (for charset tests).
 * @module
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';

export type WhoisReply =
  | string
  | Buffer
  | { text: string | Buffer; delayMs?: number }
  /** Accept the query and never answer (a dead server). */
  | 'hang'
  /** Stream data until the client closes (a hostile server). */
  | 'flood'
  /** Close without a byte. */
  | 'close';

export interface WhoisServerOptions {
  /** Loopback address to bind. @default '127.0.0.1' */
  host?: string;
  /**
   * Query (the line sent, without CRLF, case-insensitive) → reply, or a function of the
   * query. Unknown queries get `notFound`.
   */
  answers?: Record<string, WhoisReply> | ((query: string) => WhoisReply | undefined);
  /** Reply to unknown queries. @default 'No match for "<QUERY>".\r\n' */
  notFound?: (query: string) => string;
}

export interface WhoisTestServer {
  host: string;
  port: number;
  /** `127.0.0.1:port`, as NETDIAG_WHOIS_SERVER and `refer:` lines take it. */
  address: string;
  /** Queries received, in order. */
  queries: string[];
  close(): Promise<void>;
}

export async function startWhoisServer(options: WhoisServerOptions = {}): Promise<WhoisTestServer> {
  const host = options.host ?? '127.0.0.1';
  const queries: string[] = [];
  const sockets = new Set<Socket>();
  const lookup = (query: string): WhoisReply | undefined => {
    const { answers } = options;
    if (typeof answers === 'function') return answers(query);
    if (!answers) return undefined;
    const key = Object.keys(answers).find((k) => k.toLowerCase() === query.toLowerCase());
    return key === undefined ? undefined : answers[key];
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let answered = false;
    socket.on('data', (chunk) => {
      if (answered) return;
      buffer += chunk.toString('latin1');
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      answered = true;
      const query = buffer.slice(0, end).replace(/\r$/, '');
      queries.push(query);
      reply(socket, lookup(query) ?? (options.notFound ?? defaultNotFound)(query));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host,
    port,
    address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    queries,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function defaultNotFound(query: string): string {
  return `No match for "${query.toUpperCase()}".\r\n`;
}

function reply(socket: Socket, answer: WhoisReply): void {
  if (answer === 'hang') return;
  if (answer === 'close') {
    socket.end();
    return;
  }
  if (answer === 'flood') {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const pump = () => {
      while (!socket.destroyed && socket.write(chunk)) {
        /* keep writing until the kernel buffer is full */
      }
      if (!socket.destroyed) socket.once('drain', pump);
    };
    pump();
    return;
  }
  const { text, delayMs } =
    typeof answer === 'string' || Buffer.isBuffer(answer) ? { text: answer, delayMs: 0 } : answer;
  const send = () => {
    if (!socket.destroyed) socket.end(text);
  };
  if (delayMs) setTimeout(send, delayMs);
  else send();
}
