import { COMMANDS } from './commands';
import { parseCommandArgs, UsageError, type CliIO } from './command';
import { MotionError } from '../../shared/errors';

export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
  return [
    'Usage: vrma-studio <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "vrma-studio <command> --help" for the options of one command.',
  ].join('\n');
}

/** Runs one CLI invocation; returns the exit code (0 ok, 1 a file failed, 2 bad usage). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`vrma-studio: unknown command "${name}"\n\n${helpText()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(cmd.usage);
    return 0;
  }
  try {
    const { positionals, values } = parseCommandArgs(cmd, rest);
    return await cmd.run(positionals, values as Record<string, string | boolean | string[] | undefined>, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`vrma-studio ${name}: ${e.message}\n\n${cmd.usage}`);
      return 2;
    }
    if (e instanceof MotionError) {
      io.err(`vrma-studio ${name}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
