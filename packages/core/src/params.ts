/**
 * Reading one parameter the way every face does: the HTTP routes read query values with these,
 * and so do the tools agents call (`tools/tools.ts`), so the same input gets the same 400 message
 * on both: which parameter, and the form it takes. What the value means is checked after, by the
 * capability itself (`parseIp`, `normaliseDomain`, …), for every face alike.
 * @module
 */
import { InvalidInputError } from './errors.js';

/** The form each parameter takes, in the words of the message for a missing or malformed one. */
export const PARAM_FORMS = {
  ip: 'an IPv4 or IPv6 address',
  q: 'an IP address, an AS number such as AS15169, or an organisation name',
  domain: 'a domain name such as example.com',
  type: 'a DNS record type such as MX',
  dnssec: 'true, false, 1 or 0',
  email: 'an email address such as user@example.com',
  url: 'a URL or host name such as https://example.com',
  host: 'a host name or public IP address',
  ports: 'ports and ranges such as 22,80,8000-8010',
  port: 'a TCP port from 1 to 65535',
  allow_port: 'the same port as "port", to check a port that does not speak TLS',
  sender: 'an email address such as alice@example.com, or <>',
  helo: 'a host name such as mail.example.com',
  dkim_selector: 'comma-separated DKIM selectors',
} as const;

/** A parameter of the API with a text value. */
export type ParamName = keyof typeof PARAM_FORMS;

/** The longest value read: a probe URL with its path is the longest legitimate one. */
const MAX_LENGTH = 2048;

/**
 * A text parameter: absent or empty is `undefined` (a 400 naming it when `required`); anything
 * but text, or text over 2048 characters, is a 400.
 */
export function textParam(value: unknown, name: ParamName, required: true): string;
export function textParam(value: unknown, name: ParamName, required?: boolean): string | undefined;
export function textParam(value: unknown, name: ParamName, required = false): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) {
      throw new InvalidInputError(
        `Missing required parameter "${name}": ${PARAM_FORMS[name]}`,
        name,
      );
    }
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new InvalidInputError(`"${name}" must be text: ${PARAM_FORMS[name]}`, name);
  }
  if (value.length > MAX_LENGTH) {
    throw new InvalidInputError(`"${name}" is too long (at most ${MAX_LENGTH} characters)`, name);
  }
  return value;
}

/** `dnssec=true|false|1|0` (absent: false). */
export function dnssecParam(value: string | undefined): boolean {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new InvalidInputError(`"dnssec" must be ${PARAM_FORMS.dnssec}`, 'dnssec');
}

/** A port (`port`, `allow_port`) as a number; the capability checks the range (1–65535). */
export function portParam(
  value: string | undefined,
  name: 'port' | 'allow_port' = 'port',
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value)) {
    const what = name === 'allow_port' ? '"allow_port" must repeat "port":' : '"port" must be';
    throw new InvalidInputError(`${what} a whole number from 1 to 65535`, name);
  }
  return Number(value);
}
