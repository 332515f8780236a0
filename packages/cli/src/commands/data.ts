/**
 * `netdiag data update --geo <file> [--geo <ipv6 file>] [--asn <file>]`: MaxMind-format
 * databases (DB-IP's monthly files, MaxMind GeoLite2, IPinfo Lite) turned into the engine's IP
 * data in the cache directory (NETDIAG_CACHE_DIR), checked against the sources and put in place
 * in one rename; every later command and a server (on SIGHUP, or within NETDIAG_IP_DATA_CHECK_S)
 * read it. `netdiag data status`: which IP data is in use.
 * @module
 */
import { InvalidInputError } from '@netdiag/core/capabilities';
import { type CommonFlags, outputOptions, printAnswer } from '../command.js';
import { withEngine } from '../context.js';
import type { RegisterCommand } from './types.js';

interface UpdateFlags extends CommonFlags {
  geo?: string[];
  asn?: string;
}

export const registerData: RegisterCommand = (program, { io }) => {
  const data = program
    .command('data')
    .description('the IP data: which is in use, and updating it from MaxMind-format databases');
  const update = data
    .command('update')
    .description(
      'build the IP data from MaxMind-format databases into the cache directory (checked, then put in place); a running server reloads it on SIGHUP',
    )
    .option(
      '--geo <file...>',
      'a MaxMind-format City or Country database (or DB-IP’s IPv4 and IPv6 files)',
    )
    .option('--asn <file>', 'a MaxMind-format ASN or ISP database (default: the AS data in use)');
  outputOptions(update).action(async (opts: UpdateFlags) => {
    const geo = opts.geo ?? [];
    if (geo.length < 1 || geo.length > 2) {
      throw new InvalidInputError(
        '--geo takes one City or Country database, or two files (IPv4 and IPv6)',
      );
    }
    const result = await withEngine(io, (engine) =>
      engine.updateIpData({
        geo: geo.length === 2 ? [geo[0] as string, geo[1] as string] : (geo[0] as string),
        ...(opts.asn ? { asn: opts.asn } : {}),
      }),
    );
    await printAnswer(io, opts, result, () =>
      [
        `IP data written to ${result.file} in ${(result.ms / 1000).toFixed(1)} s`,
        `  ${result.counts.v4Ranges.toLocaleString('en')} IPv4 and ${result.counts.v6Ranges.toLocaleString('en')} IPv6 ranges, ${result.counts.locations.toLocaleString('en')} locations, ${result.counts.asEntries.toLocaleString('en')} AS entries`,
        `  ${result.checked.toLocaleString('en')} sample lookups agree with the source databases`,
        '  a running server reloads it on SIGHUP (or within NETDIAG_IP_DATA_CHECK_S)',
      ].join('\n'),
    );
  });
  const status = data.command('status').description('which IP data is in use, and its sources');
  outputOptions(status).action(async (opts: CommonFlags) => {
    const info = await withEngine(io, async (engine) => (await engine.datasets()).info);
    await printAnswer(io, opts, info, () =>
      [
        `file   ${info.file} (built ${info.built})`,
        `geo    ${info.geo}`,
        `asn    ${info.asn}`,
        `intel  ${info.intel || '-'}`,
      ].join('\n'),
    );
  });
};
