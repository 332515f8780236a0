export type { CommandContext } from '../command.js';

import type { Command } from 'commander';
import type { CommandContext } from '../command.js';

/** A command module registers itself on the program; actions report through `ctx.io`. */
export type RegisterCommand = (program: Command, ctx: CommandContext) => void;
