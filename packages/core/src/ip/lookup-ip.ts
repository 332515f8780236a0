/**
 * `lookupIp`: geolocation, origin AS and privacy signals of one address.
 * @module
 */
import { InvalidIpError } from '../errors.js';
import { throwIfAborted } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { createAddressParts, parseAddressInto } from './address.js';
import { getDefaultIpDatasets, type IpDatasets } from './datasets.js';
import type { IpInfo } from './types.js';

export interface LookupIpOptions extends BaseOptions {
  /**
   * Loaded datasets (`loadIpDatasets()`); share one per process.
   * @default the embedded data, loaded on first use by `getDefaultIpDatasets()`
   */
  datasets?: IpDatasets;
}

const scratch = createAddressParts();
/** The default datasets once loaded: later calls answer without awaiting the load. */
let loadedDefault: IpDatasets | undefined;

/**
 * Everything known about an address: `ip` is an IPv4 or IPv6 address (brackets and
 * IPv4-mapped IPv6 accepted). Private and reserved addresses are answered (with
 * `bogon: true` and empty location and network), never rejected. Lookups are in memory: the
 * only wait is the first load of the default datasets, and `timeout` does not apply.
 * @throws InvalidIpError (SPEC §7 message) when `ip` is not an IPv4 or IPv6 address.
 */
export function lookupIp(ip: string, options: LookupIpOptions = {}): Promise<IpInfo> {
  // Not an `async` function: the async wrapper cost a third of a warm lookup.
  const datasets = options.datasets ?? loadedDefault;
  if (datasets !== undefined) {
    try {
      throwIfAborted(options.signal);
      return Promise.resolve(datasets.lookup(ip));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return lookupLoading(ip, options);
}

/** The first lookups, while the default datasets load. */
async function lookupLoading(ip: string, options: LookupIpOptions): Promise<IpInfo> {
  throwIfAborted(options.signal);
  // Reject bad input before opening the IP data (and reading its arrays) for nothing.
  if (typeof ip !== 'string' || !parseAddressInto(ip, scratch)) {
    throw new InvalidIpError();
  }
  const datasets = await getDefaultIpDatasets();
  loadedDefault = datasets;
  throwIfAborted(options.signal);
  return datasets.lookup(ip);
}
