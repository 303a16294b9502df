/** The shape every `vrma-studio` subcommand has; one file per subcommand under main/cli/commands/. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFile } from 'node:fs/promises';
import { fileFailure, fileProblemWords } from '../../shared/fileProblem';
import { FileExistsError, writeFileAtomic } from '../services/atomicWrite';

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  /** True when stdout is a terminal (progress bars only then). */
  readonly isTTY: boolean;
}

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Returns the exit code: 0 ok, 1 a file failed, 2 bad usage. */
  run(positionals: string[], values: Record<string, string | boolean | string[] | undefined>, io: CliIO): Promise<number>;
}

export class UsageError extends Error {}

/** An output that is there already: the catalogue's words (fileError.EEXIST) and the CLI's way past it. */
export function existsRefusal(out: string): string {
  return `${fileProblemWords({ errno: 'EEXIST', file: out }, { locale: 'en' })}; use --force to replace it`;
}

/** The input file's bytes; undefined once the catalogue's words for why it cannot be read are printed. */
export async function readInputFile(command: string, input: string, io: CliIO): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(input));
  } catch (e) {
    io.err(`vrma-studio ${command}: ${fileFailure(e, input)}`);
    return undefined;
  }
}

/** OUT written atomically (replaced only with `force`); false once why it was not is printed. */
export async function writeOutputFile(command: string, out: string, bytes: Uint8Array, force: boolean, io: CliIO): Promise<boolean> {
  try {
    await writeFileAtomic(out, bytes, { overwrite: force });
    return true;
  } catch (e) {
    if (e instanceof FileExistsError) io.err(`vrma-studio ${command}: ${existsRefusal(out)}`);
    else io.err(`vrma-studio ${command}: cannot write ${out}: ${(e as Error).message}`);
    return false;
  }
}

export function parseCommandArgs(cmd: CliCommand, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: cmd.options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The one input file a command takes, or a UsageError. */
export function oneInput(positionals: readonly string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one input file' : 'give the input file');
  return positionals[0];
}

/** The -o OUT a writing command needs, or a UsageError. */
export function requiredOutput(values: Record<string, unknown>): string {
  const out = values.output;
  if (typeof out !== 'string' || out === '') throw new UsageError('-o OUT is required');
  return out;
}

/** A number option, or a UsageError naming it. */
export function numberOption(values: Record<string, unknown>, name: string, fallback?: number): number {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  const n = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${String(raw)}"`);
  return n;
}
