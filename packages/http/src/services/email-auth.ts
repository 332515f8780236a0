/**
 * Email authentication for the route and the CLI: `checkEmailAuth` and `evaluateSpf` over the
 * app's one resolver (so every section shares its cache and in-flight table).
 * @module
 */
import {
  checkEmailAuth,
  type EmailAuthReport,
  evaluateSpf,
  normaliseDomain,
  type SpfEvaluation,
} from '@netdiag/core';
import type { AppContext } from '../context.js';
import { getAllowedTargets } from './probes.js';
import { getResolver } from './resolver.js';

export interface EmailAuthParams {
  domain: string;
  ip?: string | undefined;
  sender?: string | undefined;
  helo?: string | undefined;
  /** Comma list of DKIM selectors to try first. */
  dkimSelector?: string | undefined;
}

/**
 * The data of `GET /api/email-auth`. The MTA-STS policy fetch goes through the SSRF-safe client
 * with the app's NETDIAG_ALLOWED_TARGETS, like every probe.
 */
export function runEmailAuth(
  ctx: AppContext,
  params: EmailAuthParams,
  options: { signal?: AbortSignal } = {},
): Promise<EmailAuthReport> {
  return checkEmailAuth({
    resolver: getResolver(ctx),
    allowedTargets: getAllowedTargets(ctx),
    domain: params.domain,
    ...(params.ip !== undefined ? { ip: params.ip } : {}),
    ...(params.sender !== undefined ? { sender: params.sender } : {}),
    ...(params.helo !== undefined ? { helo: params.helo } : {}),
    ...(params.dkimSelector !== undefined ? { dkimSelectors: params.dkimSelector } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** One RFC 7208 evaluation (`netdiag spf`): the same object as `data.spf.evaluation`. */
export function runSpfEvaluation(
  ctx: AppContext,
  params: { domain: string; ip: string; sender?: string | undefined; helo?: string | undefined },
  options: { signal?: AbortSignal } = {},
): Promise<SpfEvaluation> {
  const domain = normaliseDomain(params.domain, { param: 'domain' });
  return evaluateSpf({
    resolver: getResolver(ctx),
    ip: params.ip,
    domain,
    sender: params.sender || `postmaster@${domain}`,
    helo: params.helo || domain,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
