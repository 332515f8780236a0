/**
 * Port list parsing: `22,80,8000-8010` → sorted, de-duplicated port numbers (TCP ports are
 * 1–65535, RFC 9293 §3.1; port 0 is reserved and cannot be connected to).
 * @module
 */
import { InvalidInputError } from '../errors.js';

export interface ParsePortListOptions {
  /** Most ports accepted; `false` for no limit. @default 100 */
  maxPorts?: number | false;
  /** Parameter name for messages. @default 'ports' */
  param?: string;
}

/** The API's per-request cap (issue 7: at most 100 ports per request). */
export const MAX_PORTS_PER_REQUEST = 100;

export function parsePortList(input: string, options: ParsePortListOptions = {}): number[] {
  const param = options.param ?? 'ports';
  const max = options.maxPorts === undefined ? MAX_PORTS_PER_REQUEST : options.maxPorts;
  const ports = new Set<number>();
  const entries = input.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => entry === '')) {
    throw new InvalidInputError(
      `"${param}" is empty: give ports and ranges such as 22,80,8000-8010`,
      param,
    );
  }
  for (const entry of entries) {
    if (entry === '') continue;
    const match = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
    if (!match) {
      throw new InvalidInputError(
        `"${param}" has an invalid entry "${entry}": use ports and ranges such as 22,80,8000-8010`,
        param,
      );
    }
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    for (const port of [from, to]) {
      if (port < 1 || port > 65535) {
        throw new InvalidInputError(`"${param}": port ${port} is outside 1-65535`, param);
      }
    }
    if (to < from) {
      throw new InvalidInputError(`"${param}": range ${entry} runs backwards`, param);
    }
    for (let port = from; port <= to; port++) ports.add(port);
  }
  if (max !== false && ports.size > max) {
    throw new InvalidInputError(
      `"${param}" lists ${ports.size} ports; at most ${max} per request`,
      param,
    );
  }
  return [...ports].sort((a, b) => a - b);
}
