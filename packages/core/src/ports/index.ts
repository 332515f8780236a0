export {
  type CatalogEntry,
  catalogEntry,
  defaultPorts,
  PORT_CATALOG,
  type RiskLevel,
} from './catalog.js';
export { MAX_PORTS_PER_REQUEST, type ParsePortListOptions, parsePortList } from './port-list.js';
export {
  createScanLimiter,
  MAX_CONCURRENT_SCANS,
  MAX_QUEUED_SCANS,
  SCAN_RETRY_AFTER_S,
  type ScanLimiter,
  type ScanLimiterLabel,
} from './scan-limiter.js';
export {
  ACCEPTS_EVERYTHING_MIN_PORTS,
  ACCEPTS_EVERYTHING_RATIO,
  DEFAULT_PORT_TIMEOUT_MS,
  DEFAULT_SCAN_CONCURRENCY,
  type PortResult,
  type ScanPortsInput,
  type ScanPortsOptions,
  type ScanPortsResult,
  scanPorts,
} from './scan-ports.js';
export {
  type PortState,
  type ProbeResult,
  type ProbeTcpPortInput,
  type ProbeTcpPortOptions,
  probeTcpPort,
} from './tcp-probe.js';
