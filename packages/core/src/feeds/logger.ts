/**
 * What the engine reports while it works (datasets loaded, a feed refreshed or not). The
 * shape is pino's, so a server passes its pino logger; the default says nothing, so a library
 * call or a one-shot command writes nothing on its own.
 * @module
 */
export interface NetdiagLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export const SILENT_LOGGER: NetdiagLogger = Object.freeze({ info() {}, warn() {} });
