/**
 * Many deadlines behind one timer (a timer per DNS query cost CPU under load). Deadlines of one
 * length expire in the order they were set: each length keeps a FIFO, one timer is armed for
 * the earliest head of all.
 * @module
 */

/** A pending deadline; `cancel()` is idempotent and O(1). */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  at: number;
  fire: (() => void) | undefined;
}

interface Fifo {
  entries: Entry[];
  head: number;
}

export interface DeadlineQueue {
  /** Calls `fire` once `ms` milliseconds from now, unless cancelled first. */
  add(ms: number, fire: () => void): Deadline;
  /** Deadlines not yet fired or cancelled (cancelled ones may linger until their turn). */
  readonly size: number;
}

export function createDeadlineQueue(now: () => number = () => performance.now()): DeadlineQueue {
  const fifos = new Map<number, Fifo>();
  let timer: NodeJS.Timeout | undefined;
  let armedAt = Number.POSITIVE_INFINITY;
  let live = 0;

  const cancel = function (this: Entry) {
    if (this.fire === undefined) return;
    this.fire = undefined;
    if (--live === 0) reset();
  };

  /**
   * Nothing is pending: drop the queues and the timer, so that cancelled deadlines never keep
   * the process alive (a CLI exits as soon as its last query is answered).
   */
  function reset(): void {
    fifos.clear();
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedAt = Number.POSITIVE_INFINITY;
  }

  /** The first live entry of `fifo`, its cancelled predecessors dropped. */
  function head(fifo: Fifo): Entry | undefined {
    while (fifo.head < fifo.entries.length && fifo.entries[fifo.head]?.fire === undefined) {
      fifo.head++;
    }
    return fifo.entries[fifo.head];
  }

  function arm(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [ms, fifo] of fifos) {
      const first = head(fifo);
      if (first === undefined) {
        fifos.delete(ms);
        continue;
      }
      if (fifo.head > 1024 && fifo.head * 2 > fifo.entries.length) {
        fifo.entries.splice(0, fifo.head);
        fifo.head = 0;
      }
      earliest = Math.min(earliest, first.at);
    }
    if (earliest === armedAt) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedAt = earliest;
    if (earliest === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(expire, Math.max(0, Math.ceil(earliest - now())));
  }

  /** The live entry due first across all queues, its cancelled predecessors dropped. */
  function due(at: number): Entry | undefined {
    let first: Fifo | undefined;
    let firstAt = Number.POSITIVE_INFINITY;
    for (const fifo of fifos.values()) {
      const entry = head(fifo);
      if (entry !== undefined && entry.at <= at && entry.at < firstAt) {
        first = fifo;
        firstAt = entry.at;
      }
    }
    if (first === undefined) return undefined;
    return first.entries[first.head++];
  }

  function expire(): void {
    timer = undefined;
    armedAt = Number.POSITIVE_INFINITY;
    const at = now();
    // In deadline order across the queues, even when the timer fired late (a busy loop).
    for (let entry = due(at); entry !== undefined; entry = due(at)) {
      const fire = entry.fire;
      if (fire === undefined) continue;
      entry.fire = undefined;
      live--;
      fire();
    }
    arm();
  }

  return {
    add(ms, fire) {
      const at = now() + ms;
      let fifo = fifos.get(ms);
      if (!fifo) {
        fifo = { entries: [], head: 0 };
        fifos.set(ms, fifo);
      }
      const entry: Entry = { at, fire, cancel };
      fifo.entries.push(entry);
      live++;
      if (at < armedAt) arm();
      return entry;
    },
    get size() {
      return live;
    },
  };
}

let shared: DeadlineQueue | undefined;

/** The process-wide queue the resolver and its socket pool share. */
export function sharedDeadlines(): DeadlineQueue {
  shared ??= createDeadlineQueue();
  return shared;
}
