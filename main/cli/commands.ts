/** Every subcommand, in the order `vrma-studio --help` lists them. Add one import and one entry per command. */
import type { CliCommand } from './command';
import { infoCommand } from './commands/info';
import { upgradeCommand } from './commands/upgrade';
import { convertCommand } from './commands/convert';
import { poseReportCommand } from './commands/pose-report';
import { keepCommand } from './commands/keep';
import { deleteCommand } from './commands/delete';
import { speedCommand } from './commands/speed';
import { reverseCommand } from './commands/reverse';
import { mirrorCommand } from './commands/mirror';
import { inPlaceCommand } from './commands/in-place';
import { smoothCommand } from './commands/smooth';
import { loopCommand } from './commands/loop';
import { stripCommand } from './commands/strip';
import { optimizeCommand } from './commands/optimize';
import { fixCommand } from './commands/fix';
import { joinCommand } from './commands/join';
import { resampleCommand } from './commands/resample';

export const COMMANDS: readonly CliCommand[] = [
  infoCommand,
  upgradeCommand,
  convertCommand,
  poseReportCommand,
  keepCommand,
  deleteCommand,
  speedCommand,
  reverseCommand,
  mirrorCommand,
  inPlaceCommand,
  smoothCommand,
  loopCommand,
  stripCommand,
  optimizeCommand,
  fixCommand,
  joinCommand,
  resampleCommand,
];
