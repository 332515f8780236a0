import dgram from 'node:dgram';
import * as packet from 'dns-packet';
import { afterEach, describe, expect, test } from 'vitest';
import { isNetdiagError } from '../errors.js';
import { createResolver } from './resolver.js';
import { AttemptTimeout } from './resolver-attempt.js';
import { type DnsServer, parseDnsServer } from './resolver-servers.js';
import { createUdpSocketPool, type UdpSocketPool } from './resolver-socket-pool.js';
import { udpExchange } from './resolver-transport.js';
import { buildQuery, type DecodedMessage, type Query } from './resolver-wire.js';

/** One query as the server saw it. */
interface Received {
  id: number;
  /** Source port of the query, i.e. the pooled socket it left from. */
  port: number;
  name: string;
  query: packet.DecodedPacket;
}

type Reply = (answer: packet.Packet, from?: dgram.Socket) => void;

/** A raw UDP DNS server on loopback: `handle` decides when and what to answer. */
async function udpServer(handle: (query: Received, reply: Reply) => void) {
  const socket = dgram.createSocket('udp4');
  const seen: Received[] = [];
  socket.on('message', (message, rinfo) => {
    const query = packet.decode(message);
    const received: Received = {
      id: query.id ?? -1,
      port: rinfo.port,
      name: query.questions?.[0]?.name ?? '',
      query,
    };
    seen.push(received);
    handle(received, (answer, from = socket) =>
      from.send(packet.encode(answer), rinfo.port, rinfo.address),
    );
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const server = parseDnsServer(`127.0.0.1:${socket.address().port}`) as DnsServer;
  const close = () => new Promise<void>((resolve) => socket.close(() => resolve()));
  return { server, seen, close };
}

/** `n<i>.test` has the address 10.x.y.z that encodes i, so each answer names its query. */
const nameOf = (i: number) => `n${i}.test`;
const addressOf = (name: string) => {
  const i = Number(/^n(\d+)\.test$/.exec(name)?.[1] ?? 0);
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
};

function answer(query: Received, overrides: Partial<packet.Packet> = {}): packet.Packet {
  const question = query.query.questions?.[0];
  return {
    id: query.id,
    type: 'response',
    flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE,
    questions: question ? [question] : [],
    answers: [{ type: 'A', name: query.name, ttl: 60, data: addressOf(query.name) }],
    ...overrides,
  };
}

const dataOf = (message: DecodedMessage) =>
  (message.answers ?? []).map((a) => (a as { data: unknown }).data);

const countBy = (values: number[]) => {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function pool(options: Parameters<typeof createUdpSocketPool>[0] = {}): UdpSocketPool {
  const created = createUdpSocketPool(options);
  cleanups.push(() => created.close());
  return created;
}

async function server(handle: Parameters<typeof udpServer>[0] = (q, reply) => reply(answer(q))) {
  const started = await udpServer(handle);
  cleanups.push(started.close);
  return started;
}

const exchange = (
  p: UdpSocketPool,
  target: DnsServer,
  query: Query,
  ms: number,
  signal: AbortSignal,
) => udpExchange(target, query, ms, signal, p);

const ask = (p: UdpSocketPool, target: DnsServer, name: string, ms = 2000, signal?: AbortSignal) =>
  exchange(
    p,
    target,
    buildQuery(name, 'A', { edns: true }),
    ms,
    signal ?? new AbortController().signal,
  );

describe('sharing sockets', () => {
  test('many queries in flight on two sockets each get their own answer, answered in reverse', async () => {
    const held: [Received, Reply][] = [];
    const fixture = await server((q, reply) => {
      held.push([q, reply]);
      if (held.length === 100) for (const [hq, r] of held.reverse()) r(answer(hq));
    });
    const p = pool({ maxSocketsPerServer: 2, maxQueriesPerSocket: 1000 });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => ask(p, fixture.server, nameOf(i))),
    );
    results.forEach((message, i) => {
      expect(message.questions?.[0]?.name).toBe(nameOf(i));
      expect(dataOf(message)).toEqual([addressOf(nameOf(i))]);
    });
    const ports = countBy(fixture.seen.map((q) => q.port));
    expect(ports.size).toBe(2);
    // All 100 were in flight at once: on each socket every id is different.
    for (const port of ports.keys()) {
      const ids = fixture.seen.filter((q) => q.port === port).map((q) => q.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(p.stats()).toMatchObject({ open: 2, inFlight: 0, opened: 2 });
  });

  test('colliding ids from the caller are replaced by random free ids on the socket', async () => {
    const held: [Received, Reply][] = [];
    const fixture = await server((q, reply) => {
      held.push([q, reply]);
      if (held.length === 50) for (const [hq, r] of held) r(answer(hq));
    });
    const p = pool({ maxSocketsPerServer: 1, maxQueriesPerSocket: 1000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        exchange(
          p,
          fixture.server,
          buildQuery(nameOf(i), 'A', { edns: true, id: 7 }),
          2000,
          new AbortController().signal,
        ),
      ),
    );
    results.forEach((message, i) => {
      expect(dataOf(message)).toEqual([addressOf(nameOf(i))]);
    });
    expect(new Set(fixture.seen.map((q) => q.port)).size).toBe(1);
    const ids = new Set(fixture.seen.map((q) => q.id));
    expect(ids.size).toBe(50);
    expect(ids.has(7)).toBe(true); // the first keeps the caller's id
  });

  test('a forged answer on a shared socket settles neither its target nor the other query', async () => {
    const attacker = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => attacker.bind(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => attacker.close(() => resolve())));
    const held: [Received, Reply][] = [];
    const fixture = await server((q, reply) => {
      held.push([q, reply]);
      if (held.length < 2) return;
      const [[a, replyA], [b]] = held as [[Received, Reply], [Received, Reply]];
      const forged = [{ type: 'A' as const, name: a.name, ttl: 60, data: '6.6.6.6' }];
      // a's question under b's id: must not settle b (question) nor a (id).
      replyA(answer(a, { id: b.id, answers: forged }));
      // b's question under a's id: must not settle a (question) nor b (id).
      replyA(answer(b, { id: a.id, answers: forged }));
      // a's exact id and question, but from another port than the server's.
      replyA(answer(a, { answers: forged }), attacker);
      // a's question with an id nobody is waiting for.
      let unused = (a.id + 1) & 0xffff;
      if (unused === b.id) unused = (unused + 1) & 0xffff;
      replyA(answer(a, { id: unused, answers: forged }));
      setTimeout(() => {
        for (const [hq, r] of held) r(answer(hq));
      }, 30);
    });
    const p = pool({ maxSocketsPerServer: 1 });
    const [a, b] = await Promise.all([
      ask(p, fixture.server, nameOf(1)),
      ask(p, fixture.server, nameOf(2)),
    ]);
    expect(fixture.seen[0]?.port).toBe(fixture.seen[1]?.port);
    expect(dataOf(a)).toEqual([addressOf(nameOf(1))]);
    expect(dataOf(b)).toEqual([addressOf(nameOf(2))]);
  });

  test('one query timing out or aborted leaves the others on the socket alone', async () => {
    const fixture = await server((q, reply) => {
      if (q.name === nameOf(1)) setTimeout(() => reply(answer(q)), 150); // after its timeout
      if (q.name === nameOf(2)) setTimeout(() => reply(answer(q)), 80);
      // nameOf(3) is never answered; its caller aborts.
    });
    const p = pool({ maxSocketsPerServer: 1 });
    const controller = new AbortController();
    const late = ask(p, fixture.server, nameOf(1), 40).catch((e: unknown) => e);
    const fine = ask(p, fixture.server, nameOf(2), 2000);
    const aborted = ask(p, fixture.server, nameOf(3), 2000, controller.signal).catch(
      (e: unknown) => e,
    );
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    expect(await late).toBeInstanceOf(AttemptTimeout);
    expect(await aborted).toMatchObject({ message: 'caller gave up' });
    expect(dataOf(await fine)).toEqual([addressOf(nameOf(2))]);
    await new Promise((r) => setTimeout(r, 120)); // the late answer arrives and is dropped
    expect(p.stats()).toMatchObject({ open: 1, inFlight: 0 });
  });

  test('an ICMP port unreachable fails every query on the socket at once and retires it', async () => {
    const closed = await udpServer(() => {});
    await closed.close();
    const p = pool({ maxSocketsPerServer: 1 });
    const started = Date.now();
    const errors = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        ask(p, closed.server, nameOf(i), 3000).catch((e: unknown) => e),
      ),
    );
    expect(Date.now() - started).toBeLessThan(1500);
    for (const error of errors) {
      expect(isNetdiagError(error, 'UPSTREAM_ERROR')).toBe(true);
      expect((error as Error).message).toMatch(/connection refused/);
      expect((error as Error).message).not.toContain(closed.server.host);
      expect((error as { server?: string }).server).toBe(closed.server.label);
    }
    expect(p.stats()).toMatchObject({ open: 0, inFlight: 0, closed: 1 });
  });
});

describe('under churn', () => {
  test('drops, duplicates, late answers and aborts: every query settles correctly, nothing leaks', async () => {
    // Deterministic per name: every 7th is dropped, every 5th answered twice, delays 0–29 ms.
    const fixture = await server((q, reply) => {
      const i = Number(/^n(\d+)/.exec(q.name)?.[1]);
      if (i % 7 === 0) return;
      const delay = (i * 13) % 30;
      setTimeout(() => {
        reply(answer(q));
        if (i % 5 === 0) reply(answer(q));
      }, delay);
    });
    const p = pool({ maxSocketsPerServer: 4, maxQueriesPerSocket: 16 });
    type Outcome = { i: number; data: unknown[] } | { i: number; error: Error };
    const one = async (i: number): Promise<Outcome> => {
      const controller = new AbortController();
      // Every 11th caller gives up after 5 ms, usually before its answer.
      if (i % 11 === 0) setTimeout(() => controller.abort(new Error('gave up')), 5);
      try {
        const message = await ask(p, fixture.server, nameOf(i), 300, controller.signal);
        return { i, data: dataOf(message) };
      } catch (error) {
        return { i, error: error as Error };
      }
    };
    // 40 in flight at a time: a burst of hundreds of datagrams can overflow the fixture's
    // receive buffer on loopback, which would be a lost query rather than a pool fault.
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        for (let i = next++; i < 300; i = next++) outcomes.push(await one(i));
      }),
    );
    for (const outcome of outcomes) {
      if ('data' in outcome) {
        expect(outcome.data).toEqual([addressOf(nameOf(outcome.i))]);
      } else if (outcome.i % 11 === 0 && outcome.error.message === 'gave up') {
        // aborted by its caller
      } else {
        expect([outcome.i, outcome.i % 7]).toEqual([outcome.i, 0]);
        expect(outcome.error).toBeInstanceOf(AttemptTimeout);
      }
    }
    const answered = outcomes.filter((o) => 'data' in o).length;
    expect(answered).toBeGreaterThan(200);
    const stats = p.stats();
    expect(stats.inFlight).toBe(0);
    expect(stats.draining).toBe(0);
    expect(stats.open).toBeLessThanOrEqual(4);
    expect(stats.closed).toBe(stats.opened - stats.open);
    const ports = countBy(fixture.seen.map((q) => q.port));
    expect(Math.max(...ports.values())).toBeLessThanOrEqual(16);
  });
});

describe('rotating source ports', () => {
  test('a socket is retired after maxQueriesPerSocket queries and a new port takes over', async () => {
    const fixture = await server();
    const p = pool({ maxSocketsPerServer: 2, maxQueriesPerSocket: 5 });
    for (let i = 0; i < 40; i++) await ask(p, fixture.server, nameOf(i));
    const ports = countBy(fixture.seen.map((q) => q.port));
    const stats = p.stats();
    expect(stats.opened).toBeGreaterThanOrEqual(8);
    // The OS may hand a closed socket's random port to a later socket (a CI run saw it once):
    // each such reuse lets one port carry one more socket's five queries.
    const reused = stats.opened - ports.size;
    expect(reused).toBeGreaterThanOrEqual(0);
    expect(reused).toBeLessThanOrEqual(2);
    expect(Math.max(...ports.values())).toBeLessThanOrEqual(5 * (1 + reused));
    expect(stats.open).toBeLessThanOrEqual(2);
    expect(stats.closed).toBe(stats.opened - stats.open);
  });

  test('sockets older than maxSocketAgeMs take no new query; idle ones are closed', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const fixture = await server((q, reply) =>
      setTimeout(() => reply(answer(q)), q.name === nameOf(1) ? 1000 : 0),
    );
    const p = pool({ maxSocketsPerServer: 1, maxSocketAgeMs: 200 });
    const first = ask(p, fixture.server, nameOf(1));
    await sleep(300);
    // The first socket is past its age but still waits for its answer.
    expect(p.stats()).toMatchObject({ open: 1, draining: 1 });
    const second = ask(p, fixture.server, nameOf(2));
    expect(dataOf(await second)).toEqual([addressOf(nameOf(2))]);
    // The second went out on a new socket, now idle and not yet at its age.
    expect(p.stats()).toMatchObject({ open: 2, draining: 1, opened: 2 });
    await sleep(300);
    // At its age the idle socket is closed at once; the first still drains.
    expect(p.stats()).toMatchObject({ open: 1, draining: 1, closed: 1 });
    expect(dataOf(await first)).toEqual([addressOf(nameOf(1))]);
    expect(p.stats()).toMatchObject({ open: 0, opened: 2, closed: 2 });
    expect(new Set(fixture.seen.map((q) => q.port)).size).toBe(2);
  });

  test('a new socket per query until the cap, then a random one of them', async () => {
    const fixture = await server();
    const p = pool({ maxSocketsPerServer: 8, maxQueriesPerSocket: 10_000 });
    for (let i = 0; i < 408; i++) await ask(p, fixture.server, nameOf(i));
    const ports = fixture.seen.map((q) => q.port);
    expect(new Set(ports.slice(0, 8)).size).toBe(8);
    const counts = countBy(ports.slice(8));
    expect(counts.size).toBe(8);
    // 400 uniform picks over 8 sockets: 50 each on average (binomial sd ≈ 6.6).
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(20);
      expect(count).toBeLessThan(85);
    }
    // Not a round robin: the same socket is picked twice in a row now and then.
    expect(ports.slice(8).some((port, i, all) => i > 0 && all[i - 1] === port)).toBe(true);
  });

  test('through the resolver: source ports keep changing and no port carries more than 64 queries', async () => {
    const fixture = await server();
    const resolver = createResolver({ servers: [fixture.server.label], cache: false });
    const total = 1100;
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = next++; i < total; i = next++) {
          const response = await resolver.query(nameOf(i), 'A');
          expect(response.answers[0]?.data).toBe(addressOf(nameOf(i)));
        }
      }),
    );
    const ports = countBy(fixture.seen.map((q) => q.port));
    expect(fixture.seen).toHaveLength(total);
    expect(Math.max(...ports.values())).toBeLessThanOrEqual(64);
    expect(ports.size).toBeGreaterThanOrEqual(Math.ceil(total / 64));
  });
});

describe('lifecycle', () => {
  test('pooled sockets and their timers never keep the process alive', async () => {
    const fixture = await server();
    const p = pool();
    const count = (kind: string) =>
      process.getActiveResourcesInfo().filter((resource) => resource === kind).length;
    const sockets = count('UDPWrap');
    const timers = count('Timeout');
    await Promise.all(Array.from({ length: 40 }, (_, i) => ask(p, fixture.server, nameOf(i))));
    expect(p.stats().open).toBe(16);
    // 16 sockets and their age timers are open, yet none counts among what keeps the loop
    // alive (a handle of an earlier test may still be closing, hence ≤).
    expect(count('UDPWrap')).toBeLessThanOrEqual(sockets);
    expect(count('Timeout')).toBeLessThanOrEqual(timers);
  });

  test('close() fails pending queries, closes every socket, and later queries fail', async () => {
    const fixture = await server(() => {});
    const p = createUdpSocketPool();
    const pending = Array.from({ length: 3 }, (_, i) =>
      ask(p, fixture.server, nameOf(i)).catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(p.stats()).toMatchObject({ open: 3, inFlight: 3 });
    p.close();
    for (const error of await Promise.all(pending)) {
      expect(isNetdiagError(error, 'UPSTREAM_ERROR')).toBe(true);
    }
    expect(p.stats()).toMatchObject({ open: 0, inFlight: 0, closed: 3 });
    await expect(ask(p, fixture.server, nameOf(9))).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: expect.stringMatching(/closed/),
    });
  });

  test('close() while a socket is still connecting', async () => {
    const fixture = await server();
    const p = createUdpSocketPool();
    const query = ask(p, fixture.server, nameOf(1));
    p.close();
    await expect(query).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    await new Promise((r) => setTimeout(r, 20));
    expect(p.stats()).toMatchObject({ open: 0, inFlight: 0, opened: 1, closed: 1 });
    expect(fixture.seen).toHaveLength(0);
  });

  test('a socket that cannot connect is not left in the pool', async () => {
    const p = pool();
    const bad: DnsServer = { host: '127.0.0.1', port: 0, family: 4, label: '127.0.0.1:0' };
    for (let i = 0; i < 3; i++) {
      await expect(ask(p, bad, nameOf(i))).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    }
    expect(p.stats()).toMatchObject({ open: 0, inFlight: 0, opened: 3, closed: 3 });
  });

  test('an IPv6 server: answers are accepted from its address as the kernel spells it', async () => {
    const socket = dgram.createSocket('udp6');
    socket.on('message', (message, rinfo) => {
      const query = packet.decode(message);
      const received: Received = {
        id: query.id ?? -1,
        port: rinfo.port,
        name: query.questions?.[0]?.name ?? '',
        query,
      };
      socket.send(packet.encode(answer(received)), rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '::1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
    const target = parseDnsServer(`[0:0:0:0:0:0:0:1]:${socket.address().port}`) as DnsServer;
    const p = pool();
    expect(dataOf(await ask(p, target, nameOf(5)))).toEqual([addressOf(nameOf(5))]);
  });
});
