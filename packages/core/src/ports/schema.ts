/**
 * `GET /api/ports` (a tool endpoint, CONTRACT §6: shape designed here).
 * @module
 */
import { z } from 'zod';
import { acceptedBy, hostInput, PORT } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';
import { parsePortList } from './port-list.js';

export { PORT } from '../schemas/common.js';

const PORT_ENTRY = `${PORT}(?:-${PORT})?`;

export const scanPortsParamsSchema = parameters({
  host: hostInput
    .optional()
    .describe("Host name or public IP to scan; default: the caller's own IP."),
  // The pattern caps the entries at 100 and each port at 1–65535; that a range runs upwards and
  // that the expanded list stays within 100 ports cannot be written as one: the refinement
  // (zod only, absent from the JSON Schema) asks `parsePortList` itself.
  ports: z
    .string()
    .max(2048)
    .regex(new RegExp(`^${PORT_ENTRY}(?:,${PORT_ENTRY}){0,99}$`))
    .refine(acceptedBy(parsePortList), 'at most 100 ports in all; a range runs upwards')
    .optional()
    .describe(
      'Ports and ranges, comma-separated (22,80,8000-8010); at most 100. Default: the catalog.',
    ),
});
export type ScanPortsParams = z.input<typeof scanPortsParamsSchema>;

// --- Data ---

/** One port of a scan. */
export const portResultSchema = z.strictObject({
  port: z.int().min(1).max(65535).describe('TCP port'),
  state: z
    .enum(['open', 'closed', 'filtered'])
    .describe(
      'open: handshake completed; closed: RST; filtered: no answer within the per-port timeout or ICMP unreachable',
    ),
  latency_ms: z
    .number()
    .nullable()
    .describe('Milliseconds to the handshake or RST; null when filtered'),
  service: z.string().describe('Service name from the catalog; "" outside it'),
  risk_level: z
    .enum(['info', 'low', 'medium', 'high', ''])
    .describe('How worrying an open port is; "" outside the catalog'),
  risk: z.string().describe('One line on what an open port means; "" outside the catalog'),
});

/** `GET /api/ports` data. */
export const portScanDataSchema = z.strictObject({
  host: z.string().describe('The host scanned, normalised (lower-case name or canonical IP)'),
  ip: z.string().describe('The address scanned (the first checked address, IPv4 preferred)'),
  ports_scanned: z.int().describe('Number of ports probed'),
  open_count: z.int().describe('Ports open'),
  closed_count: z.int().describe('Ports closed'),
  filtered_count: z.int().describe('Ports filtered'),
  open_ports: z.array(z.int()).describe('Open ports, ascending'),
  accepts_everything: z
    .boolean()
    .describe(
      'At least 90 % of at least 10 ports answered open: a firewall or proxy accepting every connection, so "open" proves little',
    ),
  note: z.string().nullable().describe('Why the result needs care, or null'),
  port_timeout_ms: z.int().describe('Per-port connect timeout used'),
  duration_ms: z.int().describe('Duration of the scan'),
  scanned_at: z.iso.datetime().describe('Start of the scan, ISO 8601 UTC with milliseconds'),
  results: z.array(portResultSchema).describe('One entry per port, ascending'),
});
export type PortScanData = z.infer<typeof portScanDataSchema>;
