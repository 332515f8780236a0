/**
 * IP intelligence: geolocation, origin AS, privacy signals (hosting, VPN, proxy, Tor, mobile,
 * residential) from embedded data or MaxMind-format databases.
 * @module
 */
export { formatV4, formatV6 } from './address.js';
export {
  type BulkAnswerItem,
  bulkAnswerItem,
  type LookupAnswer,
  type LookupAnswerV1,
  lookupAnswer,
  lookupAnswerV1,
  lookupLocation,
} from './answers.js';
export type { AsnIndex, AsnIndexData } from './asn/asn-index.js';
export {
  BULK_MAX_IPS,
  type BulkEntryError,
  type BulkLookupOptions,
  type BulkLookupResult,
  bulkLookup,
} from './bulk-lookup.js';
export {
  createIpDatasets,
  type DatasetInfo,
  getDefaultIpDatasets,
  type IpDatasets,
  type LoadIpDatasetsOptions,
  loadIpDatasets,
  prebuildIpTables,
} from './datasets.js';
export type { DirectLookup } from './direct/direct-lookup.js';
export { type OpenIpLookupOptions, openIpLookup } from './direct/open-ip-lookup.js';
export type { GeoSource } from './geo/geo-source.js';
export { type LookupIpOptions, lookupIp } from './lookup-ip.js';
export {
  MmdbDatabase,
  MmdbFormatError,
  type MmdbMetadata,
  type MmdbNetwork,
  type VerifyMode,
} from './mmdb/database.js';
export {
  loadSignalLists,
  parseSignalLists,
  type SignalLists,
} from './privacy/signal-lists.js';
export { parseTorExitList, type TorExitList } from './tor-exit-list.js';
export type {
  IpInfo,
  IpLocation,
  IpNetwork,
  IpPrivacy,
  PrivacySignal,
  PrivacySignalName,
} from './types.js';
