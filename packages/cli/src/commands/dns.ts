import type { RegisterCommand } from './types.js';

export const registerDns: RegisterCommand = () => {};
