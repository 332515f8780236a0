/**
 * The empty parts of an answer (an address with no location, no AS, no privacy signal) and the
 * answer for a special-purpose address, shared and frozen.
 * @module
 */
import { bogonReason, type SpecialRange } from '../net/ranges.js';
import type { IpInfo, IpLocation, IpNetwork, IpPrivacy } from './types.js';

export const EMPTY_LOCATION: Readonly<IpLocation> = Object.freeze({
  city: '',
  region: '',
  country: '',
  country_name: '',
  continent: '',
  latitude: null,
  longitude: null,
  timezone: '',
  postal_code: '',
  is_eu: false,
  accuracy_radius_km: null,
});

export const EMPTY_NETWORK: Readonly<IpNetwork> = Object.freeze({
  asn: null,
  as_name: '',
  org: '',
  isp: '',
});

export const EMPTY_PRIVACY: Readonly<IpPrivacy> = Object.freeze({
  type: 'residential',
  is_hosting: false,
  is_vpn: false,
  is_proxy: false,
  is_relay: false,
  is_tor: false,
  is_mobile: false,
  is_residential: false,
  provider: '',
  signals: Object.freeze([]),
});

/** The answer for a private or reserved address (`range`): no public data, never rejected. */
export function specialAddressInfo(text: string, version: 4 | 6, range: SpecialRange): IpInfo {
  return {
    ip: text,
    version,
    bogon: true,
    bogon_reason: bogonReason(range),
    location: EMPTY_LOCATION,
    network: EMPTY_NETWORK,
    privacy: EMPTY_PRIVACY,
  };
}
