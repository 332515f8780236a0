/**
 * A one-line progress bar on stderr, redrawn with \r at most every 100 ms and cleared at the end,
 * shown only when stderr is a terminal (a pipe or a log file never gets \r noise).
 * @module
 */
import type { CliIO } from '../io.js';

export interface Progress {
  update(done: number, total: number): void;
  /** Wipes the bar before an answer is written to the same terminal; the next update redraws. */
  clear(): void;
  done(): void;
}

const NONE: Progress = { update() {}, clear() {}, done() {} };

export function progressBar(io: CliIO, noun: string, enabled: boolean, width = 30): Progress {
  if (!enabled) return NONE;
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      io.stderr(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${noun} ${percent}%`,
      );
    },
    clear() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
      last = 0;
    },
    done() {
      this.clear();
    },
  };
}
