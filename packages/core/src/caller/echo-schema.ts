/**
 * `GET /api/v1/headers`: the echo of the caller's request (SPEC 2.14).
 * @module
 */
import { z } from 'zod';

/** `GET /api/v1/headers` data (SPEC 2.14). */
export const echoHeadersDataSchema = z.strictObject({
  method: z.string().describe('HTTP method used'),
  url: z.string().describe('The full requested URL'),
  headers: z.record(z.string(), z.string()).describe('Request header name (lower case) → value'),
  ip: z.string().describe("The caller's IP address"),
});
export type EchoHeadersData = z.infer<typeof echoHeadersDataSchema>;
