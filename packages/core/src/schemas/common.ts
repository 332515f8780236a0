/**
 * Building blocks of the answer schemas: the envelope (CONTRACT §2) and the input forms the
 * server enforces (IP addresses, domain names, URLs), written so that every string the pattern
 * admits passes the matching core validator (`parseIp`, `normaliseDomain`, `parseProbeUrl`, …).
 * The patterns may be stricter than the server (IDNs in Unicode form, exotic IP literals), never
 * looser: a schema-driven fuzzer must find no "valid by schema, rejected by server" input.
 * @module
 */
import { z } from 'zod';

// --- Envelope (CONTRACT §2) ---

/** `{success: true, data}` around a `data` schema. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ success: z.literal(true), data });
}

/** `{success: false, error}`: every error answer. */
export const errorEnvelopeSchema = z
  .strictObject({
    success: z.literal(false),
    error: z.string().describe('Human-readable message'),
  })
  .describe('Error envelope');

// --- Input forms ---

/** A refinement from a core validator: the value is valid when `validate` does not throw. */
export function acceptedBy(validate: (value: string) => unknown): (value: string) => boolean {
  return (value) => {
    try {
      validate(value);
      return true;
    } catch {
      return false;
    }
  };
}

/** Strict IPv4 or IPv6 (no zone, no legacy IPv4 forms): what `parseIp` accepts and more. */
export const ipAddressInput = z.union([z.ipv4(), z.ipv6()]);

/** One DNS label; `_` allowed for service names (`_dmarc`), as `normaliseDomain` allows. */
const LABEL_US = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
/** One LDH label (RFC 1035 §2.3.1): the host-name form. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * The last label starts with a letter: a name whose last part is numeric (or 0x…) is read as an
 * IPv4 literal by `parseIpLiteral` and the WHATWG URL parser, so it is refused as a domain.
 */
const TLD = '[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** A fully qualified name of two or more labels (RFC 1035 §2.3.4 sizes), trailing dot allowed. */
export function domainInput(options: { underscore?: boolean } = {}) {
  const label = options.underscore === false ? LABEL : LABEL_US;
  return z
    .string()
    .min(1)
    .max(253)
    .regex(new RegExp(`^(?:${label}\\.)+${TLD}\\.?$`));
}

/** Host name without trailing dot and without `_` (WHATWG URL and `normaliseHost` safe). */
export const HOSTNAME = `(?:${LABEL}\\.)+${TLD}`;
const IPV4 = z.regexes.ipv4.source.replace(/^\^/, '').replace(/\$$/, '');
/** zod's IPv6 pattern without its anchors (no zone, no embedded IPv4). */
const IPV6 = z.regexes.ipv6.source.replace(/^\^/, '').replace(/\$$/, '');
/** A TCP port, 1–65535 (port 0 is refused by parseProbeUrl), without leading zeros. */
export const PORT =
  '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';

/**
 * A probe URL (`parseProbeUrl`): scheme optional (http or https), a host name, dotted quad or
 * bracketed IPv6, an optional port, then an optional path/query of printable ASCII.
 */
export const probeUrlInput = z
  .string()
  .min(1)
  .max(2048)
  .regex(
    new RegExp(
      // Leading zeros in the port as the WHATWG URL parser reads them.
      `^(?:https?://)?(?:${HOSTNAME}\\.?|${IPV4}|\\[(?:${IPV6})\\])(?::0*${PORT})?(?:[/?#][!-~]*)?$`,
    ),
  );

/** A scan target (`normaliseHost`): host name or IP address, no port, no URL. */
export const hostInput = z
  .string()
  .max(253)
  .regex(new RegExp(`^(?:${HOSTNAME}|${IPV4}|${IPV6})$`));
