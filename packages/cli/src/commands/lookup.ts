/**
 * `netdiag lookup <ip…>`: the data of GET /api/lookup. A lookup is answered from the package's
 * prebuilt files by position when they can give the engine's answer (`openIpLookup`), so the
 * command loads neither the engine nor its ~150 MB of tables (BENCHMARKS.md, "One-shot CLI
 * lookup"); otherwise (a user database, a feed copy on disk) the engine answers. This module
 * imports only `@netdiag/core/one-shot`: `netdiag lookup` loads nothing else of core.
 * @module
 */
import type { LookupAnswer } from '@netdiag/core/capabilities';
import { type DirectLookup, lookupAnswer, openIpLookup, requireIp } from '@netdiag/core/one-shot';
import { callCapability } from '../capability-call.js';
import { targetCommand } from '../command.js';
import type { RegisterCommand } from './types.js';

export const registerLookup: RegisterCommand = (program, ctx) => {
  const { io } = ctx;
  let direct: DirectLookup | undefined;
  targetCommand<LookupAnswer, object>(program, ctx, {
    name: 'lookup',
    description: 'geolocation, network and privacy flags of an IPv4 or IPv6 address',
    operand: { name: 'address', help: 'IPv4 or IPv6 address', words: true },
    direct: {
      open() {
        direct = openIpLookup({ env: io.env });
        return direct !== undefined;
      },
      run(ip) {
        requireIp(ip, 'ip');
        const info = direct?.lookup(ip as string);
        return info === undefined ? undefined : lookupAnswer(info);
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
