/**
 * Errors in the CLI's words: one `netdiag:` prefix, flags named as flags, upstream failures said
 * the way a terminal user reads them (`dns: cannot reach 192.0.2.1:53: network unreachable`),
 * and a refused target that names the switch allowing it. The exit code follows the error.
 * @module
 */
import { type ErrorCode, isNetdiagError, type NetdiagError } from '@netdiag/core/one-shot';
import { EXIT } from './exit-codes.js';

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: EXIT.badInput,
  TARGET_NOT_ALLOWED: EXIT.badInput,
  NOT_FOUND: EXIT.notFound,
  UPSTREAM_ERROR: EXIT.network,
  UPSTREAM_TIMEOUT: EXIT.network,
  UPSTREAM_THROTTLED: EXIT.network,
  ABORTED: EXIT.interrupted,
  CONFIG_ERROR: EXIT.badInput,
};

/**
 * The engine names parameters as the API does (`"domain" must be…`); on the command line they
 * are operands or flags. Unknown names stay as they are.
 */
const CLI_WORDS: Record<string, string> = {
  ip: 'the address',
  ips: 'the address',
  address: 'the address',
  domain: 'the domain',
  type: '--type',
  email: 'the email address',
  url: 'the URL',
  host: 'the host',
  ports: '--ports',
  port: '--ports',
  q: 'the query',
  query: 'the query',
  sender: '--sender',
  helo: '--helo',
  dkim_selector: '--dkim-selector',
  selector: '--dkim-selector',
};

export interface CliFailure {
  code: number;
  message: string;
}

/** Maps a thrown error to an exit code and a one-line message (without the prefix). */
export function describeError(error: unknown, words?: Record<string, string>): CliFailure {
  if (isNetdiagError(error)) {
    return { code: EXIT_BY_CODE[error.code], message: cliMessage(error, words) };
  }
  const err = error as { code?: string; message?: string };
  if (typeof err?.code === 'string' && err.code.startsWith('commander.')) {
    return { code: EXIT.badInput, message: err.message ?? 'bad arguments' };
  }
  return {
    code: EXIT.internal,
    message: `unexpected error: ${err?.message ?? String(error)} (please file an issue)`,
  };
}

function cliMessage(error: NetdiagError, words: Record<string, string> = {}): string {
  // Upstream messages carry a log prefix (`[netdiag] [dns] …`); the CLI says `dns: …` once.
  let message = error.message.replace(/^\[netdiag\] \[([^\]]+)\] /, '$1: ');
  switch (error.code) {
    case 'INVALID_INPUT':
      return message.replace(
        /"([a-z_]+)"/g,
        (quoted, name: string) => words[name] ?? CLI_WORDS[name] ?? quoted,
      );
    case 'TARGET_NOT_ALLOWED':
      return (
        `${message}; netdiag probes public addresses only. To probe this machine or your ` +
        'network, pass --allow-private (or set NETDIAG_ALLOW_PRIVATE=1)'
      );
    case 'UPSTREAM_TIMEOUT': {
      const ms = (error as { timeoutMs?: number }).timeoutMs;
      if (typeof ms === 'number') {
        message = message.replace(/no answer within \d+ ms/, `no answer within ${seconds(ms)}`);
      }
      return error.server ? `${message} (from ${error.server})` : message;
    }
    default:
      // The local user may see which server failed; the API keeps it out of the message.
      if (error.server) {
        if (message.includes('the DNS server')) {
          return message.replace('the DNS server', error.server);
        }
        // `cannot reach the WHOIS server: …` → `cannot reach 192.0.2.43: …`, as for DNS.
        if (CANNOT_REACH.test(message)) {
          return message.replace(CANNOT_REACH, `cannot reach ${error.server}:`);
        }
        return `${message} (${error.server})`;
      }
      return message;
  }
}

/** Core's words for an upstream it could not connect to (`the RDAP server`, `the breach database`). */
const CANNOT_REACH = /cannot reach the [^:]+:/;

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
