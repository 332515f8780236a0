/**
 * Counter stores for express-rate-limit (CONTRACT §3: a fixed window per client).
 * - `MemoryLimitStore`: this process only (the default).
 * - `RedisLimitStore`: shared by every instance behind a load balancer; when Redis is
 *   unreachable it counts in a local MemoryLimitStore so the API keeps serving with per-instance limits.
 * - `ClusterLimitStore` / `serveClusterLimits`: `netdiag serve --workers N` without Redis; the
 *   workers ask the primary process, which holds the only counters, so one client gets one limit.
 * @module
 */
import type { Worker } from 'node:cluster';
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import type { RedisHandle } from './redis.js';

/**
 * Fixed-window counters in this process, one entry per client seen in the current window.
 * `increment` answers synchronously: express-rate-limit's own `MemoryStore` is async, which
 * put a promise and a microtask hop in front of every request (bench/ip/http.bench.ts).
 * Expired entries are swept once per window, so memory follows the active clients.
 */
export class MemoryLimitStore implements Store {
  readonly localKeys = true;
  private windowMs = 60_000;
  private readonly clients = new Map<string, ClientRateLimitInfo & { resetTime: Date }>();
  private sweeper: NodeJS.Timeout | undefined;

  init(options: Pick<Options, 'windowMs'>): void {
    this.windowMs = options.windowMs;
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => this.sweep(Date.now()), this.windowMs);
    this.sweeper.unref();
  }

  /** Clients counted in their current window (or expired and not yet swept). */
  get size(): number {
    return this.clients.size;
  }

  increment(key: string): ClientRateLimitInfo {
    const now = Date.now();
    let client = this.clients.get(key);
    if (client === undefined || client.resetTime.getTime() <= now) {
      // A new window starts with the client's first request in it.
      client = { totalHits: 0, resetTime: new Date(now + this.windowMs) };
      this.clients.set(key, client);
    }
    client.totalHits++;
    return client;
  }

  decrement(key: string): void {
    const client = this.clients.get(key);
    if (client && client.totalHits > 0) client.totalHits--;
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const client = this.clients.get(key);
    return client && client.resetTime.getTime() > Date.now() ? client : undefined;
  }

  resetKey(key: string): void {
    this.clients.delete(key);
  }

  resetAll(): void {
    this.clients.clear();
  }

  shutdown(): void {
    clearInterval(this.sweeper);
    this.clients.clear();
  }

  private sweep(now: number): void {
    for (const [key, client] of this.clients) {
      if (client.resetTime.getTime() <= now) this.clients.delete(key);
    }
  }
}

/**
 * INCR the key; the first hit starts the window (PEXPIRE), so every client has a fixed window
 * from its first request. Returns [hits, ms left].
 */
const INCREMENT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

export class RedisLimitStore implements Store {
  private windowMs = 60_000;
  private readonly fallback = new MemoryLimitStore();
  readonly prefix: string;

  constructor(
    private readonly redis: RedisHandle,
    prefix = 'netdiag:rl:',
  ) {
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    this.fallback.init(options);
  }

  async increment(key: string): Promise<IncrementResponse> {
    try {
      const [hits, ttl] = await this.redis.send<[number, number]>([
        'EVAL',
        INCREMENT_SCRIPT,
        '1',
        this.prefix + key,
        String(this.windowMs),
      ]);
      return { totalHits: Number(hits), resetTime: new Date(Date.now() + Number(ttl)) };
    } catch {
      return this.fallback.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    try {
      await this.redis.send(['DECR', this.prefix + key]);
    } catch {
      await this.fallback.decrement(key);
    }
  }

  async resetKey(key: string): Promise<void> {
    try {
      await this.redis.send(['DEL', this.prefix + key]);
    } catch {
      await this.fallback.resetKey(key);
    }
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      const [hits, ttl] = await Promise.all([
        this.redis.send<string | null>(['GET', this.prefix + key]),
        this.redis.send<number>(['PTTL', this.prefix + key]),
      ]);
      if (hits === null) return undefined;
      return {
        totalHits: Number(hits),
        resetTime: new Date(Date.now() + Math.max(0, Number(ttl))),
      };
    } catch {
      return this.fallback.get(key);
    }
  }
}

// --- cluster: counters in the primary process ---

const CHANNEL = 'netdiag:rate-limit';

interface LimitRequest {
  channel: typeof CHANNEL;
  id: number;
  op: 'increment' | 'decrement' | 'resetKey';
  key: string;
  windowMs: number;
}
interface LimitReply {
  channel: typeof CHANNEL;
  id: number;
  totalHits?: number;
  resetMs?: number;
}

/** Runs in the primary: answers every worker's counter requests from one table. */
export function serveClusterLimits(worker: Worker): void {
  worker.on('message', (message: LimitRequest) => {
    if (message?.channel !== CHANNEL) return;
    const now = Date.now();
    let entry = clusterCounters.get(message.key);
    if (!entry || entry.reset <= now) {
      entry = { hits: 0, reset: now + message.windowMs };
      clusterCounters.set(message.key, entry);
    }
    if (message.op === 'increment') entry.hits++;
    else if (message.op === 'decrement') entry.hits = Math.max(0, entry.hits - 1);
    else clusterCounters.delete(message.key);
    const reply: LimitReply = {
      channel: CHANNEL,
      id: message.id,
      totalHits: entry.hits,
      resetMs: entry.reset,
    };
    worker.send(reply);
  });
  sweepClusterCounters();
}

const clusterCounters = new Map<string, { hits: number; reset: number }>();
let sweeping = false;
/** Drops expired windows once a minute so the table holds only active clients. */
function sweepClusterCounters(): void {
  if (sweeping) return;
  sweeping = true;
  setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of clusterCounters) if (entry.reset <= now) clusterCounters.delete(key);
  }, 60_000).unref();
}

/** Runs in a worker: forwards counter operations to the primary over IPC. */
export class ClusterLimitStore implements Store {
  private windowMs = 60_000;
  private nextId = 0;
  private readonly pending = new Map<number, (reply: LimitReply) => void>();

  constructor(private readonly keyPrefix: string) {
    process.on('message', (message: LimitReply) => {
      if (message?.channel !== CHANNEL) return;
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    });
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private call(op: LimitRequest['op'], key: string): Promise<LimitReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      const request: LimitRequest = {
        channel: CHANNEL,
        id,
        op,
        key: this.keyPrefix + key,
        windowMs: this.windowMs,
      };
      process.send?.(request);
    });
  }

  async increment(key: string): Promise<IncrementResponse> {
    const reply = await this.call('increment', key);
    return { totalHits: reply.totalHits ?? 0, resetTime: new Date(reply.resetMs ?? Date.now()) };
  }
  async decrement(key: string): Promise<void> {
    await this.call('decrement', key);
  }
  async resetKey(key: string): Promise<void> {
    await this.call('resetKey', key);
  }
}
