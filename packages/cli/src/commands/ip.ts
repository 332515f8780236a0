import type { RegisterCommand } from './types.js';

export const registerIpIntel: RegisterCommand = () => {};
