/**
 * The loop of the commands that report on each file they are given (info, check): read the file,
 * report it as text or as one entry of a JSON array, and carry on past a file that cannot be read,
 * naming it on stderr and in the JSON; the exit status says whether every file was read.
 */
import { readFile } from 'node:fs/promises';
import { UsageError, type CliIO } from './command';
import { MotionError } from '../../shared/errors';
import { fileFailure, studioErrorCodeOf } from '../../shared/fileProblem';

/** A read failure as the CLI reports it: the studio's error code and a message that names the file. */
export function fileError(e: unknown, file: string): { code: string; message: string } {
  if (e instanceof MotionError) return { code: e.code, message: `${file}: ${e.message}` };
  const errno = (e as NodeJS.ErrnoException)?.code;
  if (typeof errno !== 'string') throw e;
  return { code: studioErrorCodeOf(errno), message: fileFailure(e, file) };
}

/** What a command says of one file: its JSON entry's fields and its text. */
export interface FileReport {
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** Runs `report` on each file; 0 when every file was read, 1 when one was not (the others are still reported). */
export async function eachFile(command: string, files: readonly string[], json: boolean, io: CliIO, report: (file: string, bytes: Uint8Array) => FileReport): Promise<number> {
  if (files.length === 0) throw new UsageError('give at least one .vrma file');
  const results: Record<string, unknown>[] = [];
  let failed = false;
  for (const [i, file] of files.entries()) {
    try {
      const r = report(file, new Uint8Array(await readFile(file)));
      if (json) results.push({ file, ...r.json });
      else io.out((i ? '\n' : '') + r.text);
    } catch (e) {
      const error = fileError(e, file);
      failed = true;
      io.err(`vrma-studio ${command}: ${error.message}`);
      if (json) results.push({ file, error });
    }
  }
  if (json) io.out(JSON.stringify(results, null, 2));
  return failed ? 1 : 0;
}
