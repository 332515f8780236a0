/**
 * Shared pieces of the outbound probes (`/api/down`, `/api/security-headers`, `/api/ports`):
 * the allowed-target set from NETDIAG_ALLOWED_TARGETS, the app resolver, and a server-wide cap
 * on concurrent port scans (each scan holds up to 50 sockets; without a cap a burst of callers
 * could exhaust file descriptors or turn the server into a scanning cannon).
 * @module
 */
import {
  type CheckSiteOptions,
  type CidrSet,
  checkSite,
  type GradeSecurityHeadersOptions,
  gradeSecurityHeaders,
  NetdiagError,
  parseCidrList,
  type ScanPortsOptions,
  type ScanPortsResult,
  type SecurityHeadersResult,
  type SiteCheckResult,
  scanPorts,
} from '@netdiag/core';
import { type AppContext, service } from '../context.js';
import { getResolver } from './resolver.js';

/** Port scans running at once on one server. */
export const MAX_CONCURRENT_SCANS = 4;
/** Scans allowed to wait for a slot; beyond this callers get 503 at once. */
export const MAX_QUEUED_SCANS = 16;
/** Retry-After for a refused scan: about one scan's worst-case duration (100 ports, 1.5 s). */
export const SCAN_RETRY_AFTER_S = 5;

/** NETDIAG_ALLOWED_TARGETS, parsed once per app (validated at start-up by config.ts). */
export function getAllowedTargets(ctx: AppContext): CidrSet {
  return service(ctx, 'probe-allowed-targets', (c) => parseCidrList(c.config.allowedTargets));
}

/** A counting semaphore with a bounded, abortable queue. */
export interface ScanLimiter {
  readonly active: number;
  readonly queued: number;
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createScanLimiter(
  max = MAX_CONCURRENT_SCANS,
  maxQueued = MAX_QUEUED_SCANS,
): ScanLimiter {
  let active = 0;
  const waiting: { start: () => void; fail: (error: unknown) => void }[] = [];
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next) next.start();
  };
  return {
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (active >= max) {
        if (waiting.length >= maxQueued) {
          throw new NetdiagError(
            'UPSTREAM_THROTTLED',
            `Too many port scans are running on this server; retry in ${SCAN_RETRY_AFTER_S} s`,
            { retryAfterS: SCAN_RETRY_AFTER_S },
          );
        }
        await new Promise<void>((resolve, reject) => {
          const entry = {
            start: () => {
              signal?.removeEventListener('abort', onAbort);
              resolve();
            },
            fail: reject,
          };
          const onAbort = () => {
            const index = waiting.indexOf(entry);
            if (index !== -1) waiting.splice(index, 1);
            reject(signal?.reason ?? new Error('aborted'));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          waiting.push(entry);
        });
      }
      active++;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

export function getScanLimiter(ctx: AppContext): ScanLimiter {
  return service(ctx, 'probe-scan-limiter', () => createScanLimiter());
}

type Common = { signal?: AbortSignal };

/** `/api/down` and `netdiag down`. */
export function runSiteCheck(
  ctx: AppContext,
  url: string,
  options: Common & Pick<CheckSiteOptions, 'timeout'> = {},
): Promise<SiteCheckResult> {
  return checkSite({
    url,
    resolver: getResolver(ctx),
    allowedTargets: getAllowedTargets(ctx),
    ...options,
  });
}

/** `/api/security-headers` and `netdiag security-headers`. */
export function runSecurityHeaders(
  ctx: AppContext,
  url: string,
  options: Common & Pick<GradeSecurityHeadersOptions, 'timeout' | 'httpPort'> = {},
): Promise<SecurityHeadersResult> {
  return gradeSecurityHeaders({
    url,
    resolver: getResolver(ctx),
    allowedTargets: getAllowedTargets(ctx),
    ...options,
  });
}

/**
 * `/api/ports` and `netdiag ports`. The API path goes through the server-wide limiter and the
 * 100-port cap; the CLI passes `limited: false` and `maxPorts: false`.
 */
export function runPortScan(
  ctx: AppContext,
  options: Common &
    Pick<
      ScanPortsOptions,
      'host' | 'ports' | 'maxPorts' | 'portTimeout' | 'concurrency' | 'onProgress' | 'timeout'
    > & {
      limited?: boolean;
    },
): Promise<ScanPortsResult> {
  const { limited = true, ...scan } = options;
  const task = () =>
    scanPorts({ ...scan, resolver: getResolver(ctx), allowedTargets: getAllowedTargets(ctx) });
  return limited ? getScanLimiter(ctx).run(task, options.signal) : task();
}
