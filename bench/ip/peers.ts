/**
 * Loads the peer libraries from bench/peers (installed there on demand, never part of the
 * workspace install): `maxmind` (mmdb-lib + an LRU) and `geoip-lite` (its own GeoLite data).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const peersDir = fileURLToPath(new URL('../peers/', import.meta.url));

export function requirePeers(): NodeJS.Require {
  if (
    !existsSync(`${peersDir}node_modules/maxmind`) ||
    !existsSync(`${peersDir}node_modules/geoip-lite`)
  ) {
    console.error('Installing benchmark peers: npm install --prefix bench/peers');
    const result = spawnSync('npm', ['install', '--prefix', peersDir, '--no-audit', '--no-fund'], {
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('npm install --prefix bench/peers failed');
  }
  return createRequire(`${peersDir}package.json`);
}

export interface MaxmindReader {
  get(ip: string): unknown;
}
export interface Maxmind {
  open(path: string): Promise<MaxmindReader>;
}
export interface GeoipLite {
  lookup(ip: string): unknown;
}
