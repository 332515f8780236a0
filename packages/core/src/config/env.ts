/**
 * Reading `NETDIAG_*` variables: one small reader shared by core's configuration and the
 * faces' own keys, so every face reports a bad value the same way (naming the variable).
 * @module
 */
import { ConfigError } from '../errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvReader {
  /** The trimmed value; `undefined` when unset or empty. */
  str(key: string): string | undefined;
  /** A whole number in `[min, max]`; throws `ConfigError` naming `key` otherwise. */
  int(key: string, min: number, max: number): number | undefined;
  /** A comma list, trimmed, empty entries dropped; `[]` when unset. */
  list(key: string): string[];
  /** `on|off|true|false|1|0`; throws `ConfigError` naming `key` otherwise. */
  bool(key: string): boolean | undefined;
}

const TRUE = new Set(['on', 'true', '1', 'yes']);
const FALSE = new Set(['off', 'false', '0', 'no']);

export function envReader(env: Env): EnvReader {
  const str = (key: string) => {
    const value = env[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    str,
    int(key, min, max) {
      const value = str(key);
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
        throw new ConfigError(
          `${key} must be a whole number from ${min} to ${max}, got "${value}"`,
        );
      }
      return n;
    },
    list(key) {
      return (str(key) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    },
    bool(key) {
      const value = str(key)?.toLowerCase();
      if (value === undefined) return undefined;
      if (TRUE.has(value)) return true;
      if (FALSE.has(value)) return false;
      throw new ConfigError(`${key} must be on or off, got "${value}"`);
    },
  };
}

/** True for an absolute `http:` or `https:` URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
