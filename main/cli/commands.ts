/** Every subcommand, in the order `vrma-studio --help` lists them. Add one import and one entry per command. */
import type { CliCommand } from './command';
import { infoCommand } from './commands/info';
import { upgradeCommand } from './commands/upgrade';

export const COMMANDS: readonly CliCommand[] = [
  infoCommand,
  upgradeCommand,
];
