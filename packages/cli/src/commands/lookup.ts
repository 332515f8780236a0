/**
 * `netdiag lookup <ip…>`: the data of GET /api/lookup, from the IP data read by position with
 * the feed copies of the cache directory applied (`openIpLookup`): the engine's reader, without
 * the engine or a load of the data (BENCHMARKS.md, "CLI start and scripts"). This module imports
 * only `@netdiag/core/one-shot`: `netdiag lookup` loads nothing else of core.
 * @module
 */
import type { LookupAnswer } from '@netdiag/core/capabilities';
import { type IpDatasets, lookupAnswer, openIpLookup, requireIp } from '@netdiag/core/one-shot';
import { dataDir as ipDataDir } from '@netdiag/ip-data';
import { callCapability } from '../capability-call.js';
import { targetCommand } from '../command.js';
import type { RegisterCommand } from './types.js';

export const registerLookup: RegisterCommand = (program, ctx) => {
  const { io } = ctx;
  let direct: IpDatasets | undefined;
  targetCommand<LookupAnswer, object>(program, ctx, {
    name: 'lookup',
    description: 'geolocation, network and privacy flags of an IPv4 or IPv6 address',
    operand: { name: 'address', help: 'IPv4 or IPv6 address', words: true },
    direct: {
      async open() {
        direct = await openIpLookup({ env: io.env, ipDataDir });
      },
      run(ip) {
        requireIp(ip, 'ip');
        return direct ? lookupAnswer(direct.lookup(ip as string)) : undefined;
      },
      close: () => direct?.close(),
    },
    run: (engine, ip, _flags, { call }) =>
      callCapability<LookupAnswer>('lookupIp', engine, { ip }, call),
    text: renderLookup,
  });
};

export const orDash = (value: string | number | null) =>
  value === null || value === '' ? '-' : String(value);

export function renderLookup(data: LookupAnswer): string {
  const l = data.location;
  const n = data.network;
  const flags = Object.entries(data.privacy)
    .filter(([, on]) => on)
    .map(([name]) => name);
  const lines = [
    `${data.ip}${data.bogon ? '  (private or reserved address: no public data)' : ''}`,
    `  location   ${[l.city, l.region, l.country_name || l.country].filter(Boolean).join(', ') || '-'}`,
    `  coords     ${l.latitude === null ? '-' : `${l.latitude}, ${l.longitude}`}   timezone ${orDash(l.timezone)}`,
    `  network    ${n.asn === null ? '-' : `AS${n.asn}`} ${n.as_name}`,
    `  isp / org  ${orDash(n.isp)} / ${orDash(n.org)}`,
    `  privacy    ${flags.length ? flags.join(', ') : 'no hosting, proxy or mobile signal'}`,
  ];
  return lines.join('\n');
}
