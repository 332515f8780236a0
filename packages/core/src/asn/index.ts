/** ASN search: IP → origin AS, AS number → holder and prefixes, name → matching ASes. */
export { isAsnLike, MAX_ASN, parseAsn } from './as-number.js';
export {
  type AsnIpResult,
  type AsnNameMatch,
  type AsnNameResult,
  type AsnNumberResult,
  type AsnSearchResult,
  type SearchAsnOptions,
  searchAsn,
} from './search-asn.js';
