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
} from './answers.js';
export {
  BULK_MAX_IPS,
  type BulkEntryError,
  type BulkLookupOptions,
  type BulkLookupResult,
  bulkLookup,
} from './bulk-lookup.js';
export { IP_DATA_FILE, IP_DATA_PACKAGE, type IpDataMeta } from './data/ip-data-file.js';
export {
  type IpDataUpdate,
  type UpdateIpDataOptions,
  updateIpData,
} from './data/update-ip-data.js';
export {
  type DatasetInfo,
  findIpDataFile,
  type IpDatasets,
  type LoadIpDatasetsOptions,
  loadIpDatasets,
} from './datasets.js';
export { type LookupIpOptions, lookupIp } from './lookup-ip.js';
export { type OpenIpLookupOptions, openIpLookup } from './open-ip-lookup.js';
export { type IntelData, loadIntelData } from './privacy/intel-pack.js';
export { parseTorExitList, type TorExitList } from './tor-exit-list.js';
export type {
  IpInfo,
  IpLocation,
  IpNetwork,
  IpPlace,
  IpPrivacy,
  PrivacySignal,
  PrivacySignalName,
} from './types.js';
