/**
 * The full IP intelligence record returned by `lookupIp`. HTTP endpoints (`/api/lookup`,
 * `/api/v1/ip`, `/api/ip`, `/api/score`, `/api/bulk`) each pick and rename fields from it.
 * Unknown values keep their type (CONTRACT §2): strings '', numbers null, booleans false.
 * @module
 */

/** Geolocation of an address. Shared between lookups that hit the same record: do not mutate. */
export interface IpLocation {
  city: string;
  /** First-level subdivision (state, region, province). */
  region: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  /** English short name of `country` (Intl.DisplayNames). */
  country_name: string;
  /** Continent code: AF, AN, AS, EU, NA, OC or SA. */
  continent: string;
  latitude: number | null;
  longitude: number | null;
  /** IANA time zone: from the database when it has one, else from the coordinates. */
  timezone: string;
  postal_code: string;
  /** Country is one of the 27 EU member states. */
  is_eu: boolean;
  /** Radius in km around the coordinates the address is likely within, when the data says. */
  accuracy_radius_km: number | null;
}

/** Who routes an address. Shared between lookups in the same AS: do not mutate. */
export interface IpNetwork {
  /** Origin autonomous system number, null when no AS announces the address. */
  asn: number | null;
  /** The AS holder's name (the ASN data's organisation field). */
  as_name: string;
  /** Organisation using the address: the ISP database's value when one is configured, else `as_name`. */
  org: string;
  /** Internet service provider: the ISP database's value when one is configured, else `as_name`. */
  isp: string;
}

export type PrivacySignalName = 'hosting' | 'vpn' | 'proxy' | 'tor' | 'mobile' | 'residential';

/** Why a privacy flag is set: which data said so, in words a person can check. */
export interface PrivacySignal {
  signal: PrivacySignalName;
  /**
   * `asn-list`: the AS is listed in one of the curated files in `@netdiag/core/data`;
   * `as-name-keyword`: the AS name contains a listed keyword;
   * `tor-exit-list`: the address is in the Tor Project's bulk exit list;
   * `isp-list`: the AS is a listed access (ISP) network and no other signal applies;
   * `no-other-signal`: an announced address with no hosting, VPN, proxy, Tor or mobile signal.
   */
  source: 'asn-list' | 'as-name-keyword' | 'tor-exit-list' | 'isp-list' | 'no-other-signal';
  /** E.g. `AS16509 is listed in data/asn-hosting.tsv: Amazon Web Services (AWS)`. */
  evidence: string;
}

/** Privacy classification. Shared between lookups in the same AS: do not mutate. */
export interface IpPrivacy {
  /**
   * SPEC 2.3 summary: `vpn` when a VPN, proxy or Tor signal is present, else `datacenter`
   * when a hosting signal is, else `residential` (also the value when nothing is known).
   */
  type: 'residential' | 'vpn' | 'datacenter';
  is_hosting: boolean;
  is_vpn: boolean;
  /** An anonymising proxy: a Tor exit, a listed proxy/relay AS, or "proxy" in the AS name. */
  is_proxy: boolean;
  is_tor: boolean;
  is_mobile: boolean;
  /** An access-network (ISP) address with none of the other signals. */
  is_residential: boolean;
  signals: readonly PrivacySignal[];
}

export interface IpInfo {
  /** Canonical address: dotted quad or RFC 5952 IPv6 (IPv4-mapped IPv6 becomes IPv4). */
  ip: string;
  version: 4 | 6;
  /** True for private, reserved and other special-purpose addresses (CONTRACT §2). */
  bogon: boolean;
  /** The special-purpose range and its RFC, when `bogon`; '' otherwise. */
  bogon_reason: string;
  location: Readonly<IpLocation>;
  network: Readonly<IpNetwork>;
  privacy: Readonly<IpPrivacy>;
}
