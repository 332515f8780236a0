/**
 * `GET /healthz`. The other operational routes (metrics, the OpenAPI document) write their own
 * bodies and have no envelope.
 * @module
 */
import { z } from 'zod';

/** `GET /healthz` data (also the body of its 503 while draining). */
export const healthDataSchema = z.strictObject({
  status: z.enum(['ok', 'draining']),
  ready: z.boolean().describe('False while shutting down'),
  version: z.string().describe('Server version'),
  uptime_s: z.int().describe('Seconds since start'),
  attribution: z.array(z.string()).describe('Attribution of the bundled data'),
});
export type HealthData = z.infer<typeof healthDataSchema>;
