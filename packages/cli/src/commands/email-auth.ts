import type { RegisterCommand } from './types.js';

export const registerEmailAuth: RegisterCommand = () => {};
