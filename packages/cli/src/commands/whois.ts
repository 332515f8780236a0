import type { RegisterCommand } from './types.js';

export const registerWhois: RegisterCommand = () => {};
