/**
 * The one AS-number grammar of netdiag: `AS15169`, `as15169`, `AS 15169` or bare `15169`.
 * AS numbers are 32-bit (RFC 6793), so 0 to 4294967295.
 * @module
 */

/** The largest AS number (RFC 6793: four-octet AS numbers). */
export const MAX_ASN = 0xffffffff;

const AS_NUMBER = /^(?:as\s?)?(\d+)$/i;

/** True when `text` is written like an AS number, whether or not it is in range. */
export function isAsnLike(text: string): boolean {
  return AS_NUMBER.test(text.trim());
}

/** `AS15169` / `as15169` / `AS 15169` / `15169` → 15169; `undefined` for other text or past 4294967295. */
export function parseAsn(text: string): number | undefined {
  const match = AS_NUMBER.exec(text.trim());
  if (!match) return undefined;
  const asn = Number(match[1]);
  return asn <= MAX_ASN ? asn : undefined;
}
