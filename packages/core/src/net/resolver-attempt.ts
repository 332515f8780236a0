/**
 * One attempt of one exchange with one server: a settle-once promise bounded by a per-attempt
 * timer and the caller's signal, shared by the UDP pool, TCP and DoH transports.
 * @module
 */
import { UpstreamError } from '../errors.js';
import { whenAborted } from './signal.js';
import { failureInWords } from './socket-failure.js';

/** An attempt ran out of its per-server time; the resolver moves on to the next server. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  constructor(
    readonly server: string,
    readonly ms: number,
  ) {
    super(`${server} did not answer within ${ms} ms`);
  }
}

/** Settles an attempt once: `finish(undefined, value)` resolves, `finish(error)` rejects. */
export type Finish<T> = (error: unknown, value?: T) => void;

/**
 * Runs `start` with a settle-once callback, a per-attempt timer and the caller's signal. The
 * cleanup `start` returns runs exactly once, whatever settled the attempt (answer, error,
 * timeout, abort), so sockets and table entries never outlive it.
 */
export function attempt<T>(
  server: string,
  ms: number,
  signal: AbortSignal,
  start: (finish: Finish<T>) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let cleanup: (() => void) | undefined;
    const finish: Finish<T> = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWaiting?.();
      cleanup?.();
      if (error === undefined) resolve(value as T);
      else reject(error);
    };
    const onAbort = () => finish(signal.reason ?? new Error('aborted'));
    let stopWaiting: (() => void) | undefined;
    const timer = setTimeout(() => finish(new AttemptTimeout(server, ms)), ms);
    if (signal.aborted) {
      onAbort();
      return;
    }
    stopWaiting = whenAborted(signal, onAbort);
    let registered: () => void;
    try {
      registered = start(finish);
    } catch (error) {
      finish(networkError(server, error));
      return;
    }
    // `start` may have settled synchronously (e.g. a send that failed at once).
    if (settled) registered();
    else cleanup = registered;
  });
}

/**
 * A socket-level failure (refused, unreachable, reset) as the resolver's upstream error. The
 * message says "the DNS server" and the address travels in `error.server`: the HTTP API must not
 * tell its clients where its resolver is, while the CLI names it (`cannot reach 192.0.2.1:53`).
 */
export function networkError(server: string, error: unknown): UpstreamError {
  return new UpstreamError(
    'dns',
    `cannot reach the DNS server: ${failureInWords(error)}`,
    error,
    server,
  );
}
