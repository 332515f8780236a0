/**
 * Information disclosure (a netdiag addition): headers naming the software stack, and worse its
 * versions, help pick a known exploit (OWASP Secure Headers Project, "headers to remove").
 * A bare `Server: nginx` is tolerated; `Server: nginx/1.18.0` is not.
 * @module
 */
import { type CheckOutcome, joinedHeader, outcome, type ScanInput, shownValue } from './types.js';

/** Headers that only ever describe the technology stack. */
const DISCLOSING_HEADERS = [
  'x-powered-by',
  'x-aspnet-version',
  'x-aspnetmvc-version',
  'x-generator',
  'x-powered-cms',
  'x-drupal-cache',
  'x-redirect-by',
  'x-backend-server',
  'x-runtime',
  'x-version',
] as const;

/** A version number: 1.2, 10.0.17763, 8.1.2-1ubuntu, or a product/9 token. */
const VERSION = /(?:\d+\.\d+)|(?:\/\s*v?\d+)/i;

export function checkInformationDisclosure(input: ScanInput): CheckOutcome {
  const leaks: { header: string; value: string; version: boolean }[] = [];
  const server = joinedHeader(input.auto, 'server');
  if (server !== null && VERSION.test(server)) {
    leaks.push({ header: 'server', value: server.slice(0, 256), version: true });
  }
  for (const header of DISCLOSING_HEADERS) {
    const value = joinedHeader(input.auto, header);
    if (value === null) continue;
    // X-AspNet(Mvc)-Version carry nothing but a version.
    const version = header.endsWith('-version') || VERSION.test(value);
    leaks.push({ header, value: value.slice(0, 256), version });
  }
  const result =
    leaks.length === 0
      ? 'information-disclosure-none'
      : leaks.some((leak) => leak.version)
        ? 'information-disclosure-version'
        : 'information-disclosure-technology';
  const shown = shownValue(
    leaks.map((l) => `${l.header}: ${l.value}`),
    '; ',
  );
  return outcome(result, leaks.length === 0, leaks.length > 0, shown);
}
