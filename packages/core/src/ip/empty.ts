/**
 * The empty parts of an answer (an address with no location or no AS), shared and frozen: one
 * module of their own so that every reader of the data can use them without the others.
 * @module
 */
import type { IpLocation, IpNetwork } from './types.js';

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
