/**
 * Information disclosure (a netdiag addition, not an Observatory test): headers that name the
 * server software, framework or CMS, and worse, their versions, help an attacker pick a
 * known exploit (OWASP Secure Headers Project, "headers to remove";
 * https://owasp.org/www-project-secure-headers/#div-headers_remove). A bare `Server: nginx`
 * is common and tolerated; `Server: nginx/1.18.0` is not.
 * @module
 */
import { type CheckOutcome, joinedHeader, type ScanInput, shownValue } from './types.js';

/** Headers that only ever describe the technology stack. */
export const DISCLOSING_HEADERS = [
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

export interface DisclosureOutcome extends CheckOutcome {
  /** Each leaking header with its value. */
  leaks: { header: string; value: string; version: boolean }[];
}

export function checkInformationDisclosure(input: ScanInput): DisclosureOutcome {
  const leaks: DisclosureOutcome['leaks'] = [];
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
  return {
    result,
    pass: result === 'information-disclosure-none',
    present: leaks.length > 0,
    value: shownValue(
      leaks.map((l) => `${l.header}: ${l.value}`),
      '; ',
    ),
    leaks,
  };
}
