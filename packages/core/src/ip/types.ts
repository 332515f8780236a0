/**
 * The full IP intelligence record returned by `lookupIp`. HTTP endpoints (`/api/lookup`,
 * `/api/v1/ip`, `/api/ip`, `/api/score`, `/api/bulk`) each pick and rename fields from it.
 * Unknown values keep their type (CONTRACT §2): strings '', numbers null, booleans false.
 * @module
 */
import type { z } from 'zod';
import type {
  locationSchema,
  networkSchema,
  privacySchema,
  privacySignalSchema,
} from './schema.js';

/**
 * Geolocation of an address: the fields the answers carry, plus the accuracy radius, which no
 * answer has yet (kept for callers of `lookupIp`). Shared between lookups that hit the same
 * record: do not mutate.
 */
export interface IpLocation extends z.output<typeof locationSchema> {
  /** Radius in km around the coordinates the address is likely within, when the data says. */
  accuracy_radius_km: number | null;
}

/** Who routes an address. Shared between lookups in the same AS: do not mutate. */
export type IpNetwork = z.output<typeof networkSchema>;

/**
 * Privacy classification (SPEC 2.3), the `privacy` of `GET /api/asn`. Shared between lookups
 * in the same AS: do not mutate. The schema's type, but `signals` readonly: the classifier
 * freezes that list.
 */
export type IpPrivacy = Omit<z.output<typeof privacySchema>, 'signals'> & {
  signals: readonly PrivacySignal[];
};

/** Why a privacy flag is set: which data said so, in words a person can check. */
export type PrivacySignal = z.output<typeof privacySignalSchema>;

export type PrivacySignalName = PrivacySignal['signal'];

/** The full record of one address, which the answers pick from: not an answer itself. */
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

/** An address's record without its privacy signals (`IpDatasets.locate`, `bulkLookup`). */
export type IpPlace = Omit<IpInfo, 'privacy'>;
