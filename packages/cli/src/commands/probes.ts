import type { RegisterCommand } from './types.js';

export const registerProbes: RegisterCommand = () => {};
