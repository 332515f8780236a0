export {
  checkNetdiagConfig,
  DEFAULT_NETDIAG_CONFIG,
  loadNetdiagConfig,
  NETDIAG_CONFIG_ENV,
  type NetdiagConfig,
  resolveNetdiagConfig,
} from './config.js';
export { type Env, type EnvReader, envReader } from './env.js';
