/** Runs the `vrma-studio` CLI in-process with captured output (fast; no child process per call). */
import type { CliIO } from '../main/cli/command';
import { runCli } from '../main/cli/runCli';

export function capturedIO(): CliIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), isTTY: false };
}

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capturedIO();
  const code = await runCli(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}
