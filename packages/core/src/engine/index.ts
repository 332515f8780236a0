export {
  type BulkAnswer,
  type CallOptions,
  type CreateNetdiagOptions,
  createNetdiag,
  DEFAULT_ENGINE_TIMEOUTS,
  type EmailAuthInput,
  type EngineTimeouts,
  type IpDataInput,
  type Netdiag,
  type PortScanInput,
  type ScanCallOptions,
  type SpfInput,
} from './engine.js';
