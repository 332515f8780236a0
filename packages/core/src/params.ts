/**
 * The parameters' names and forms, in the words of the 400 for a missing or malformed one
 * (CONTRACT §2: "which parameter, and the expected form"). The parameter schemas
 * (`schemas/param.ts`) write their messages from this table; no zod here, so the CLI's start can
 * name a form without loading it.
 * @module
 */

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
export const MAX_PARAM_LENGTH = 2048;
