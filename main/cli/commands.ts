/**
 * Every subcommand, in the order `vrma-studio --help` lists them. The motion edits come from the edit
 * registry (shared/edits/registry.ts), one subcommand per entry; other commands: one import and one entry.
 */
import type { CliCommand } from './command';
import { infoCommand } from './commands/info';
import { upgradeCommand } from './commands/upgrade';
import { convertCommand } from './commands/convert';
import { poseReportCommand } from './commands/pose-report';
import { checkCommand } from './commands/check';
import { exportCommand } from './commands/export';
import { captureCommand } from './commands/capture';
import { editCommand } from './editCommand';
import { EDITS } from '../../shared/edits/registry';

export const COMMANDS: readonly CliCommand[] = [infoCommand, upgradeCommand, convertCommand, exportCommand, poseReportCommand, checkCommand, captureCommand, ...EDITS.map(editCommand)];
