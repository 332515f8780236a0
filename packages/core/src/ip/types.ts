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

export type PrivacySignalName =
  | 'hosting'
  | 'vpn'
  | 'proxy'
  | 'relay'
  | 'tor'
  | 'mobile'
  | 'residential';

/** Why a privacy flag is set: which data said so, in words a person can check. */
export interface PrivacySignal {
  signal: PrivacySignalName;
  /**
   * `range-list`: the address is in a published range (cloud, CDN, relay egress, VPN, carrier);
   * `block`: the address lies inside a block dense with one source's ranges or addresses
   *   (a relay's egress, a cloud's ranges, a VPN's exits: intel.ts);
   * `address-list`: the address is in a list of exact addresses (VPN exits);
   * `asn-list`: the AS is in a list (the curated `data/asn-*.tsv` files or a bundled one);
   * `as-name-keyword`: the AS name contains a listed keyword;
   * `tor-exit-list`: the address is a Tor exit (run-time list, else the bundled snapshot);
   * `isp-list`: the AS is a listed access (ISP) network and no other signal applies;
   * `no-other-signal`: an announced address with no hosting, VPN, proxy, Tor or mobile signal.
   */
  source:
    | 'range-list'
    | 'block'
    | 'address-list'
    | 'asn-list'
    | 'as-name-keyword'
    | 'tor-exit-list'
    | 'isp-list'
    | 'no-other-signal';
  /** E.g. `AS16509 is listed in data/asn-hosting.tsv: Amazon Web Services (AWS)`. */
  evidence: string;
  /** The data behind it: upstream repository, feed name or curated file (`lord-alfred/ipranges`). */
  dataset: string;
  /** Its version: upstream commit and date, a feed's fetch time, or `curated`. */
  version: string;
}

/** Privacy classification. Shared between lookups in the same AS: do not mutate. */
export interface IpPrivacy {
  /**
   * SPEC 2.3 summary of the deciding signal: `vpn` for an anonymiser (VPN, proxy, relay, Tor),
   * `datacenter` for hosting, else `residential` (mobile and ISP lines, and no data).
   */
  type: 'residential' | 'vpn' | 'datacenter';
  is_hosting: boolean;
  is_vpn: boolean;
  /** An anonymising proxy: a Tor exit, a privacy relay, a listed proxy, or "proxy" in the AS name. */
  is_proxy: boolean;
  /** A privacy relay's egress (iCloud Private Relay): also `is_proxy`, type `vpn`. */
  is_relay: boolean;
  is_tor: boolean;
  is_mobile: boolean;
  /** An access-network (ISP) address with none of the other signals. */
  is_residential: boolean;
  /** Who runs the address when a published range or list says (`AWS`, `iCloud Private Relay`), else ''. */
  provider: string;
  /** The signals that decided, most specific first. */
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
