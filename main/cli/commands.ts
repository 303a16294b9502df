/** Every subcommand, in the order `vrma-studio --help` lists them. Add one import and one entry per command. */
import type { CliCommand } from './command';

export const COMMANDS: readonly CliCommand[] = [];
