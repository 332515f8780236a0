/**
 * HTTP → HTTPS redirection (Observatory `redirection.js`): first to https on the same host (so
 * that host's HSTS gets set), ending on https. The preload list is not consulted.
 * @module
 */
import { type CheckOutcome, outcome, type ScanInput, shownValue } from './types.js';

const PASSING = [
  'redirection-not-needed-no-http',
  'redirection-all-redirects-preloaded',
  'redirection-to-https',
];

export function checkRedirection(input: ScanInput): CheckOutcome {
  const route = input.httpRedirects.map((hop) => new URL(hop.url));
  const value = shownValue(
    route.map((u) => u.href),
    ' → ',
  );
  let result: string;
  if (!input.http) result = 'redirection-not-needed-no-http';
  else if (!input.http.verified) result = 'redirection-invalid-cert';
  else if (route.length <= 1) result = 'redirection-missing';
  else if (route.at(-1)?.protocol !== 'https:') result = 'redirection-not-to-https';
  else if (route[1]?.protocol === 'http:')
    result = 'redirection-not-to-https-on-initial-redirection';
  else if (
    route[0]?.protocol === 'http:' &&
    route[1]?.protocol === 'https:' &&
    route[0].hostname !== route[1].hostname
  ) {
    result = 'redirection-off-host-from-http';
  } else result = 'redirection-to-https';
  return outcome(result, PASSING.includes(result), route.length > 1, value);
}
