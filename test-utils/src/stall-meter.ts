/**
 * How long the event loop was blocked, told apart from how long the machine kept this process
 * off the CPU: a 5 ms timer notes each gap between its ticks and the CPU time the process used
 * in it. A gap of 150 ms with 3 ms of CPU is the scheduler (other processes on a busy machine);
 * a gap of 150 ms with 150 ms of CPU is code that did not yield. `busyMs` is the longest gap
 * counted as the smaller of the two, which is what a test of "no stall" should bound.
 * @module
 */

export interface StallMeter {
  /** Stops the timer: the longest gap (wall clock) and the longest busy gap, in ms. */
  stop(): { maxDelayMs: number; busyMs: number };
}

export function startStallMeter(): StallMeter {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let maxDelayMs = 0;
  let busyMs = 0;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const gap = now - last;
    maxDelayMs = Math.max(maxDelayMs, gap);
    busyMs = Math.max(busyMs, Math.min(gap, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(tick, 5);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return { maxDelayMs, busyMs };
    },
  };
}
