import type { RegisterCommand } from './types.js';

export const registerCaller: RegisterCommand = () => {};
