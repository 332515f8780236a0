/** The benchmark zone: 1000 hosts with A and MX records, and the DNSBL test point 127.0.0.2. */

import { DNSBL_ZONES, dnsblQueryName } from '@netdiag/core';
import type { Zone } from '@netdiag/test-utils';

export const HOSTS = 1000;
export const hostName = (i: number) => `host${i}.bench.test`;

export function benchZone(): Zone {
  const zone: Zone = {};
  for (let i = 0; i < HOSTS; i++) {
    zone[hostName(i)] = {
      A: [`10.0.${i >> 8}.${i & 255}`],
      MX: [{ preference: 10, exchange: `mx.${hostName(i)}` }],
      ttl: 300,
    };
  }
  for (const list of DNSBL_ZONES) {
    zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'], TXT: ['test point'] };
  }
  return zone;
}
