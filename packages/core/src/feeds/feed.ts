/**
 * Data feeds: a list fetched from an upstream URL (the Tor exit list today), with an explicit
 * refresh policy. The last good copy is kept on disk and read at start, so a one-shot command
 * works offline on what is cached, and a server has the signal before its first fetch ends.
 * @module
 */

import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { DnsResolver } from '../net/dns-types.js';
import { throwForStatus, upstreamRequest } from '../net/http-client.js';
import type { feedStatusSchema } from '../schemas/operations.js';
import { type NetdiagLogger, SILENT_LOGGER } from './logger.js';

/**
 * `schedule`: fetch soon after start and every `refreshMs` (a server); `manual`: only on
 * `refresh()` (one-shot commands, libraries). Both read the last good copy from disk at start.
 */
export type FeedPolicy = 'schedule' | 'manual';

/**
 * A scheduled feed's first fetch waits this long, so a server starts answering from the copy on
 * disk (or the bundled data) before loading the HTTP client and fetching four feeds.
 */
export const FIRST_FETCH_DELAY_MS = 2_000;

export interface FeedDefinition<T> {
  /** Upstream name in errors and logs (`tor-exit-list`). */
  name: string;
  /** File name of the on-disk copy inside the cache directory. */
  file: string;
  refreshMs: number;
  maxBytes: number;
  timeoutMs: number;
  /** Parses the fetched text; throws when it is not the expected list. */
  parse(text: string, fetchedAt: string): T;
  /** Entries in a parsed list (for health and metrics). */
  size?(value: T): number;
}

/**
 * A feed in `GET /healthz` `feeds` and the metrics: entries in use (0 when none), when and from
 * where (`fetch`, `disk` for the last good copy, `none`) and the last fetch's error.
 */
export type FeedStatus = z.output<typeof feedStatusSchema>;

export interface FeedOptions<T> {
  url: string;
  /** Directory of the on-disk copy; `false` keeps none. */
  dir: string | false;
  policy: FeedPolicy;
  /** Host names of the feed URL are resolved through it (NETDIAG_DNS_SERVERS). */
  resolver?: DnsResolver;
  logger?: NetdiagLogger;
  /** Called with every list installed, and the text it was parsed from (copy on disk or answer). */
  onUpdate(value: T, text: string): void;
}

export interface Feed<T> {
  /** The list in use, if any. */
  current(): T | undefined;
  /** Fetches now; resolves true when a new list was installed. Never rejects. */
  refresh(): Promise<boolean>;
  /** Settles when the on-disk copy has been read (and, under `schedule`, the first fetch tried). */
  readonly ready: Promise<void>;
  /** Stops the timer and any fetch in flight. */
  close(): void;
  status(): FeedStatus;
}

export function startFeed<T>(definition: FeedDefinition<T>, options: FeedOptions<T>): Feed<T> {
  const logger = options.logger ?? SILENT_LOGGER;
  const path = options.dir === false ? undefined : join(options.dir, definition.file);
  const controller = new AbortController();
  let value: T | undefined;
  let closed = false;
  let fetchedAt = '';
  let from: FeedStatus['from'] = 'none';
  let lastError = '';

  const install = (next: T, text: string, when: string, how: FeedStatus['from']) => {
    options.onUpdate(next, text);
    value = next;
    fetchedAt = when;
    from = how;
  };

  const refresh = async (): Promise<boolean> => {
    if (closed) return false;
    try {
      const response = await upstreamRequest(options.url, {
        upstream: definition.name,
        timeout: definition.timeoutMs,
        maxBytes: definition.maxBytes,
        signal: controller.signal,
        ...(options.resolver ? { resolver: options.resolver } : {}),
      });
      throwForStatus(response, definition.name);
      const text = response.body.toString('utf8');
      const now = new Date().toISOString();
      install(definition.parse(text, now), text, now, 'fetch');
      lastError = '';
      if (path) await saveCopy(path, text);
      logger.info({ component: 'feeds', feed: definition.name }, `${definition.name} refreshed`);
      return true;
    } catch (error) {
      if (!closed) {
        lastError = (error as Error).message;
        logger.warn(
          { component: 'feeds', feed: definition.name, err: (error as Error).message },
          `${definition.name} not refreshed; keeping the previous copy`,
        );
      }
      return false;
    }
  };

  const readCopy = async () => {
    if (!path) return;
    try {
      const text = await readFile(path, 'utf8');
      const when = (await stat(path)).mtime.toISOString();
      if (value === undefined) install(definition.parse(text, when), text, when, 'disk');
    } catch {
      // No copy yet (a first run) or an unusable one: the next fetch replaces it.
    }
  };

  const ready = (async () => {
    await readCopy();
    if (options.policy === 'schedule') {
      const wait = { signal: controller.signal, ref: false };
      await sleep(FIRST_FETCH_DELAY_MS, undefined, wait).catch(() => {}); // aborted by close()
      await refresh();
    }
  })();
  const timer =
    options.policy === 'schedule'
      ? setInterval(() => void refresh(), definition.refreshMs).unref()
      : undefined;

  return {
    current: () => value,
    refresh,
    ready,
    status: () => ({
      name: definition.name,
      url: options.url,
      entries: value !== undefined && definition.size ? definition.size(value) : 0,
      fetched_at: fetchedAt,
      age_s: fetchedAt
        ? Math.max(0, Math.round((Date.now() - Date.parse(fetchedAt)) / 1000))
        : null,
      from,
      last_error: lastError,
    }),
    close() {
      closed = true;
      controller.abort();
      clearInterval(timer);
    },
  };
}

/** Temporary name + rename: a reader never sees half a file. */
async function saveCopy(path: string, text: string): Promise<void> {
  try {
    await mkdir(join(path, '..'), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch {
    // A read-only disk only costs the copy for the next start.
  }
}
