/**
 * What a command may touch of its process: the two output streams (with what they are
 * connected to), the environment and stdin. Tests hand in their own; `index.ts` the real one.
 * @module
 */
import type { Netdiag } from '@netdiag/core/capabilities';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves once stdout has taken what was written (a streamed command's backpressure). */
  drained?: () => Promise<void>;
  env: Record<string, string | undefined>;
  /** Read all of stdin (targets given as `-`). */
  stdin?: () => Promise<string>;
  /** stdout is a terminal: pretty JSON, colour, aligned tables fitted to `columns`. */
  stdoutIsTTY?: boolean;
  /** stderr is a terminal: progress bars. */
  stderrIsTTY?: boolean;
  /** Terminal width in characters, when stdout is a terminal. */
  columns?: number;
  /** A test's engine, used instead of one made from the environment (closed after each command). */
  engine?: () => Netdiag;
}
