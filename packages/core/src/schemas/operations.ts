/**
 * `GET /healthz`. The other operational routes (metrics, the OpenAPI document) write their own
 * bodies and have no envelope.
 * @module
 */
import { z } from 'zod';

/** One run-time data feed: the list in use, its age, and the last fetch's error. */
export const feedStatusSchema = z.strictObject({
  name: z.string().describe('tor-exit-list, relay-ranges, vpn-exits or cloud-ranges'),
  url: z.string().describe('Where it is fetched from (NETDIAG_*_URL)'),
  entries: z.int().describe('Addresses or ranges in the list in use; 0 when none'),
  fetched_at: z.string().describe('When the list in use was fetched (ISO); "" when none'),
  age_s: z.int().nullable().describe('Seconds since fetched_at; null: bundled data only'),
  from: z.enum(['fetch', 'disk', 'none']).describe('Fetched, last good copy on disk, or none'),
  last_error: z.string().describe('Why the last fetch failed; "" after a success'),
});

/** `GET /healthz` data (also the body of its 503 while draining). */
export const healthDataSchema = z.strictObject({
  status: z.enum(['ok', 'draining']),
  ready: z.boolean().describe('False while shutting down'),
  version: z.string().describe('Server version'),
  uptime_s: z.int().describe('Seconds since start'),
  attribution: z.array(z.string()).describe('Attribution of the bundled data'),
  feeds: z
    .array(feedStatusSchema)
    .describe('Run-time data feeds: a stale or failing feed leaves the bundled data in use'),
});
export type HealthData = z.infer<typeof healthDataSchema>;
