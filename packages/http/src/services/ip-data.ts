/**
 * One loaded IP dataset per app (geo, ASN, privacy lists) and the Tor exit list that feeds
 * it: fetched from `torExitListUrl` at start and every 30 minutes, the last good copy kept on
 * disk (`cacheDir`, default the OS temp dir) and used at start-up. A missing or failing list
 * is never an error: lookups go on without the Tor signal. Timers are unref'd (they never keep
 * the process alive) and cleared by the context's closers.
 * @module
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type IpDatasets,
  type IpInfo,
  type IpLocation,
  type IpNetwork,
  type IpPrivacy,
  loadIpDatasets,
  parseTorExitList,
  type TorExitList,
  throwForStatus,
  upstreamRequest,
} from '@netdiag/core';
import { DEFAULT_CONFIG } from '../config.js';
import { type AppContext, service } from '../context.js';
import { JsonText } from '../envelope.js';

/** The Tor Project regenerates the bulk exit list about every 30 minutes. */
export const TOR_REFRESH_MS = 30 * 60 * 1000;
/** The list is ~20 KB (about 1,500 addresses); anything far larger is not it. */
const TOR_MAX_BYTES = 2 * 1024 * 1024;
const TOR_TIMEOUT_MS = 10_000;
const TOR_FILE = 'netdiag-tor-exit-list.txt';

export interface IpDataService {
  /** The loaded datasets; rejects with a `ConfigError` when a configured database is unusable. */
  datasets(): Promise<IpDatasets>;
  /**
   * Answers from the datasets: synchronously once they are loaded (the usual case, and no
   * promise per request), else after the load. `answer` throws for bad input.
   */
  withDatasets<T>(answer: (datasets: IpDatasets) => T): T | Promise<T>;
  /** Fetches the Tor list now; resolves true when a new list was installed. Never rejects. */
  refreshTor(): Promise<boolean>;
  /** The Tor list in use, if any. */
  torExitList(): TorExitList | undefined;
}

/** The app's IP data (created and loading on first use). */
export function ipDataService(ctx: AppContext): IpDataService {
  return service(ctx, 'ip-data', createIpDataService);
}

function createIpDataService(ctx: AppContext): IpDataService {
  const { config, logger } = ctx;
  const dir = config.cacheDir ?? tmpdir();
  const torFile = join(dir, TOR_FILE);
  const controller = new AbortController();
  let tor: TorExitList | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let loaded: IpDatasets | undefined;

  const loading = loadIpDatasets({
    geoipDb: config.geoipDb,
    asnDb: config.asnDb,
    cacheDir: dir,
    onNote: (message) => logger.info({ component: 'ip-data' }, message),
  });
  // A load failure is reported to whoever awaits `datasets()`; do not crash on it here.
  loading.then(
    (datasets) => {
      loaded = datasets;
      logger.info({ component: 'ip-data', ...datasets.info }, 'IP datasets loaded');
      if (tor) datasets.setTorExitList(tor);
    },
    () => {},
  );

  const install = (list: TorExitList) => {
    tor = list;
    void loading.then((datasets) => datasets.setTorExitList(list)).catch(() => {});
  };

  const fetchesAllowed = (): boolean => {
    // Under a test runner, the built-in public URL is never fetched (tests may only reach
    // loopback, CONTRACT §7); a test that wants the Tor signal points the URL at a fixture.
    if (process.env['VITEST'] && config.torExitListUrl === DEFAULT_CONFIG.torExitListUrl) {
      return false;
    }
    return true;
  };

  const refreshTor = async (): Promise<boolean> => {
    if (closed || !fetchesAllowed()) return false;
    try {
      const response = await upstreamRequest(config.torExitListUrl, {
        upstream: 'tor-exit-list',
        timeout: TOR_TIMEOUT_MS,
        maxBytes: TOR_MAX_BYTES,
        signal: controller.signal,
      });
      throwForStatus(response, 'tor-exit-list');
      const text = response.body.toString('utf8');
      const list = parseTorExitList(text, new Date().toISOString());
      if (list.size === 0) {
        throw new Error(`no address in the answer (${list.invalid_lines} other lines)`);
      }
      install(list);
      await saveCopy(dir, torFile, text);
      logger.info({ component: 'ip-data', tor_exits: list.size }, 'Tor exit list refreshed');
      return true;
    } catch (error) {
      if (!closed) {
        logger.warn(
          { component: 'ip-data', err: (error as Error).message },
          'Tor exit list not refreshed; keeping the previous copy',
        );
      }
      return false;
    }
  };

  // The last good copy first (instant), then a fresh one.
  const start = async () => {
    try {
      const text = await readFile(torFile, 'utf8');
      const list = parseTorExitList(text, '');
      if (list.size > 0 && !tor) install(list);
    } catch {
      // No copy yet: normal on a first start.
    }
    await refreshTor();
  };
  void start();
  timer = setInterval(() => void refreshTor(), TOR_REFRESH_MS);
  timer.unref();

  ctx.closers.push(() => {
    closed = true;
    controller.abort();
    if (timer) clearInterval(timer);
    timer = undefined;
  });

  return {
    datasets: () => loading,
    withDatasets: (answer) => (loaded ? answer(loaded) : loading.then(answer)),
    refreshTor,
    torExitList: () => tor,
  };
}

/** Writes the list next to the AS index cache (temporary name + rename: never half a file). */
async function saveCopy(dir: string, file: string, text: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch {
    // A read-only disk only costs the copy for the next start.
  }
}

// --- API shapes picked from core's full record (shared by the routes and the CLI) ---

function locationFields(l: Readonly<IpLocation>) {
  return {
    city: l.city,
    region: l.region,
    country: l.country,
    country_name: l.country_name,
    continent: l.continent,
    latitude: l.latitude,
    longitude: l.longitude,
    timezone: l.timezone,
    postal_code: l.postal_code,
    is_eu: l.is_eu,
  };
}

function networkFields(n: Readonly<IpNetwork>) {
  return { asn: n.asn, isp: n.isp, org: n.org, as_name: n.as_name };
}

function privacyFields(p: Readonly<IpPrivacy>) {
  return { hosting: p.is_hosting, proxy: p.is_proxy, mobile: p.is_mobile };
}

export function lookupLocation(info: IpInfo) {
  return locationFields(info.location);
}

/** `GET /api/lookup` data (SPEC 2.5). */
export function lookupData(info: IpInfo) {
  return {
    ip: info.ip,
    location: locationFields(info.location),
    network: networkFields(info.network),
    privacy: privacyFields(info.privacy),
    bogon: info.bogon,
  };
}

/** `GET /api/v1/ip/:address` data (SPEC 2.5, v1 form: no privacy). */
export function v1IpData(info: IpInfo) {
  return {
    ip: info.ip,
    location: locationFields(info.location),
    network: networkFields(info.network),
    bogon: info.bogon,
  };
}

/**
 * JSON text of the shared parts of an answer: core hands out one frozen `IpLocation` per
 * geolocation record and one `IpNetwork` and `IpPrivacy` per AS, so their text can be kept
 * and an answer assembled from three cached pieces instead of serialising ~20 fields per
 * request (that was the largest cost of GET /api/lookup besides Express and Node's own,
 * bench/ip/http.bench.ts). Only frozen objects are kept (nothing can change them after);
 * when full, the cache starts over, so it never holds more than `FRAGMENTS_MAX` texts
 * (about 200 bytes each).
 */
const FRAGMENTS_MAX = 65_536;
let fragments = new Map<object, string>();
function fragment<T extends object>(value: T, fields: (value: T) => object): string {
  let json = fragments.get(value);
  if (json === undefined) {
    json = JSON.stringify(fields(value));
    if (!Object.isFrozen(value)) return json;
    if (fragments.size >= FRAGMENTS_MAX) fragments = new Map();
    fragments.set(value, json);
  }
  return json;
}

/** `lookupData(info)` serialised: the same text as `JSON.stringify(lookupData(info))`. */
export function lookupDataJson(info: IpInfo): JsonText {
  return new JsonText(
    `{"ip":${JSON.stringify(info.ip)},"location":${fragment(info.location, locationFields)},"network":${fragment(info.network, networkFields)},"privacy":${fragment(info.privacy, privacyFields)},"bogon":${info.bogon}}`,
  );
}

/** `v1IpData(info)` serialised: the same text as `JSON.stringify(v1IpData(info))`. */
export function v1IpDataJson(info: IpInfo): JsonText {
  return new JsonText(
    `{"ip":${JSON.stringify(info.ip)},"location":${fragment(info.location, locationFields)},"network":${fragment(info.network, networkFields)},"bogon":${info.bogon}}`,
  );
}

/** One `POST /api/bulk` result (SPEC 2.13). */
export function bulkItem(info: IpInfo) {
  return {
    ip: info.ip,
    country: info.location.country,
    city: info.location.city,
    region: info.location.region,
    isp: info.network.isp,
    org: info.network.org,
    asn: info.network.asn,
    lat: info.location.latitude,
    lon: info.location.longitude,
    bogon: info.bogon,
  };
}
