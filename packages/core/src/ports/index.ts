export { PORT_CATALOG } from './catalog.js';
export { MAX_PORTS_PER_REQUEST, parsePortList } from './port-list.js';
export { createScanLimiter, type ScanLimiter, type ScanLimiterLabel } from './scan-limiter.js';
export {
  type PortResult,
  type ScanPortsInput,
  type ScanPortsOptions,
  type ScanPortsResult,
  scanPorts,
} from './scan-ports.js';
