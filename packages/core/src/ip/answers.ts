/**
 * The SPEC shapes of IP answers, picked from core's full record: `GET /api/lookup` (SPEC 2.5),
 * `GET /api/v1/ip/:address` (v1: no privacy) and one `POST /api/bulk` entry (SPEC 2.13).
 * @module
 */
import type { z } from 'zod';
import type {
  bulkAnswerItemSchema,
  locationSchema,
  lookupDataSchema,
  lookupV1DataSchema,
} from './schema.js';
import type { IpInfo, IpLocation, IpNetwork, IpPlace, IpPrivacy } from './types.js';

/** `GET /api/lookup` data (SPEC 2.5). */
export type LookupAnswer = z.output<typeof lookupDataSchema>;
/** `GET /api/v1/ip/:address` data (SPEC 2.5, v1 form: no privacy). */
export type LookupAnswerV1 = z.output<typeof lookupV1DataSchema>;
/** One `POST /api/bulk` result (SPEC 2.13). */
export type BulkAnswerItem = z.output<typeof bulkAnswerItemSchema>;

function locationFields(l: Readonly<IpLocation>): z.output<typeof locationSchema> {
  return {
    city: l.city,
    region: l.region,
    country: l.country,
    country_name: l.country_name,
    continent: l.continent,
    latitude: l.latitude,
    longitude: l.longitude,
    timezone: l.timezone,
    postal_code: l.postal_code,
    is_eu: l.is_eu,
  };
}

function networkFields(n: Readonly<IpNetwork>) {
  return { asn: n.asn, isp: n.isp, org: n.org, as_name: n.as_name };
}

function privacyFields(p: Readonly<IpPrivacy>) {
  return { hosting: p.is_hosting, proxy: p.is_proxy, mobile: p.is_mobile };
}

/** The `location` object of `/api/lookup` and `/api/v1/ip` answers. */
export function lookupLocation(info: IpInfo): z.output<typeof locationSchema> {
  return locationFields(info.location);
}

/** `GET /api/lookup` data (SPEC 2.5). */
export function lookupAnswer(info: IpInfo): LookupAnswer {
  return {
    ip: info.ip,
    location: locationFields(info.location),
    network: networkFields(info.network),
    privacy: privacyFields(info.privacy),
    bogon: info.bogon,
  };
}

/** `GET /api/v1/ip/:address` data (SPEC 2.5, v1 form: no privacy). */
export function lookupAnswerV1(info: IpInfo): LookupAnswerV1 {
  return {
    ip: info.ip,
    location: locationFields(info.location),
    network: networkFields(info.network),
    bogon: info.bogon,
  };
}

/** One `POST /api/bulk` result (SPEC 2.13). */
export function bulkAnswerItem(info: IpPlace): BulkAnswerItem {
  return {
    ip: info.ip,
    country: info.location.country,
    city: info.location.city,
    region: info.location.region,
    isp: info.network.isp,
    org: info.network.org,
    asn: info.network.asn,
    lat: info.location.latitude,
    lon: info.location.longitude,
    bogon: info.bogon,
  };
}
