/**
 * The SPEC shapes of the caller endpoints: `GET /api/ip` (SPEC 2.2), `GET /api/v1/ip`
 * (SPEC 2.5, v1 form) and `GET /api/score` (SPEC 2.4, plus the evidence list).
 * @module
 */
import type { z } from 'zod';
import { lookupLocation } from '../ip/answers.js';
import type { IpInfo } from '../ip/types.js';
import type { IpScore } from '../score/index.js';
import type { ConnectionInfo } from './connection.js';
import type {
  callerIpDataSchema,
  callerIpV1DataSchema,
  scoreDataSchema,
  v1AuthorityRecordSchema,
} from './schema.js';

export interface AddressReport {
  info: IpInfo;
  score: IpScore;
}

/** One record of a v1 DNS answer (SPEC 2.7/2.8 v1 shape), as `/api/v1/ip` `authority` holds it. */
export type V1Record = z.output<typeof v1AuthorityRecordSchema>;

/** `GET /api/ip` data (SPEC 2.2). */
export type CallerAnswer = z.output<typeof callerIpDataSchema>;
/** `GET /api/v1/ip` data (SPEC 2.5, v1 form). */
export type CallerAnswerV1 = z.output<typeof callerIpV1DataSchema>;
/** `GET /api/score` data (SPEC 2.4, plus the evidence list). */
export type ScoreAnswer = z.output<typeof scoreDataSchema>;

/** Coordinates as strings in `/api/ip` (SPEC 2.2); "" when unknown (CONTRACT §2). */
function coordinateText(value: number | null): string {
  return value === null ? '' : String(value);
}

/** `GET /api/ip` data (SPEC 2.2). */
export function callerAnswer(report: AddressReport, connection: ConnectionInfo): CallerAnswer {
  const { info } = report;
  const { is_eu, ...location } = lookupLocation(info);
  const { label, ...privacy } = privacyOf(report);
  return {
    ip: info.ip,
    location: {
      ...location,
      latitude: coordinateText(location.latitude),
      longitude: coordinateText(location.longitude),
    },
    network: {
      asn: info.network.asn,
      isp: info.network.isp,
      connection_type: connection.connection_type,
      tls_version: connection.tls_version,
    },
    privacy,
    is_eu,
    ipv6: info.version === 6,
    bogon: info.bogon,
  };
}

/** `GET /api/v1/ip` data (SPEC 2.5, v1 form). */
export function callerAnswerV1(
  report: AddressReport,
  connection: ConnectionInfo,
  authority: V1Record[],
): CallerAnswerV1 {
  const { info } = report;
  return {
    ip: info.ip,
    location: lookupLocation(info),
    network: {
      asn: info.network.asn,
      isp: info.network.isp,
      org: info.network.org,
      as_name: info.network.as_name,
      connection_type: connection.connection_type,
      tls_version: connection.tls_version,
    },
    privacy: privacyOf(report),
    ipv6: info.version === 6,
    authority,
    bogon: info.bogon,
  };
}

/** The `privacy` of `/api/v1/ip`; `/api/ip` has the same without `label`. */
function privacyOf({ info, score }: AddressReport) {
  return {
    type: score.type,
    score: score.score,
    grade: score.grade,
    label: score.label,
    is_vpn: score.is_vpn,
    is_datacenter: score.is_datacenter,
    is_residential: score.is_residential,
    hosting: info.privacy.is_hosting,
    proxy: info.privacy.is_proxy,
  };
}

/** `GET /api/score` data (SPEC 2.4, plus the evidence list). */
export function scoreAnswer(report: AddressReport, connection: ConnectionInfo): ScoreAnswer {
  const { info, score } = report;
  return {
    ip: info.ip,
    location: {
      city: info.location.city,
      country: info.location.country,
      timezone: info.location.timezone,
    },
    network: {
      isp: info.network.isp,
      asn: info.network.asn,
      tls_version: connection.tls_version,
    },
    privacy: {
      type: score.type,
      score: score.score,
      grade: score.grade,
      label: score.label,
      flags: score.flags,
      is_vpn: score.is_vpn,
      is_datacenter: score.is_datacenter,
      is_residential: score.is_residential,
      evidence: score.evidence,
    },
    ipv6: info.version === 6,
    bogon: info.bogon,
  };
}
