/** Every command module, registered in help order. */
import { registerServe } from './serve.js';
import type { RegisterCommand } from './types.js';

export const COMMANDS: RegisterCommand[] = [registerServe];
