/**
 * The shape shared by every motion-edit subcommand: read one or two .vrma files, apply a pure edit
 * from shared/edits, write OUT atomically (an existing OUT only with --force) and report.
 */
import { readFile } from 'node:fs/promises';
import { UsageError, type CliCommand, type CliIO } from './command';
import type { Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { MotionError } from '../../shared/errors';
import { writeFileAtomic, FileExistsError } from '../services/atomicWrite';

type Values = Record<string, string | boolean | string[] | undefined>;

export interface EditSpec {
  readonly name: string;
  readonly summary: string;
  /** e.g. "IN --factor F"; "-o OUT [--force]" is added. */
  readonly synopsis: string;
  readonly description: readonly string[];
  /** Help lines for the edit's own options. */
  readonly optionHelp?: readonly string[];
  readonly options?: CliCommand['options'];
  /** Number of input files (1, or 2 for join). */
  readonly inputs?: 1 | 2;
  /** The edit; may return lines to print after the "wrote" line. */
  apply(inputs: Motion[], values: Values): Motion | { motion: Motion; report: string[] };
  /** Lines printed once the output bytes exist (sizes, measured errors). */
  afterWrite?(inputs: Motion[], output: Motion, inputBytes: Uint8Array[], outputBytes: Uint8Array): string[];
}

async function readInput(path: string, cmd: string, io: CliIO): Promise<{ motion: Motion; bytes: Uint8Array } | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    io.err(`vrma-studio ${cmd}: ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return undefined;
  }
  try {
    return { motion: readVrma(bytes), bytes };
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    io.err(`vrma-studio ${cmd}: ${path}: ${e.message}`);
    return undefined;
  }
}

export function editCommand(spec: EditSpec): CliCommand {
  const inputs = spec.inputs ?? 1;
  return {
    name: spec.name,
    summary: spec.summary,
    usage: [
      `Usage: vrma-studio ${spec.name} ${spec.synopsis} -o OUT [--force]`,
      '',
      ...spec.description,
      '',
      'Options:',
      ...(spec.optionHelp ?? []),
      '  -o, --output OUT   the file to write (required; written atomically)',
      '  --force            replace OUT if it exists (otherwise an existing OUT is refused)',
    ].join('\n'),
    options: { ...spec.options, output: { type: 'string', short: 'o' }, force: { type: 'boolean' } },
    async run(positionals, values, io) {
      if (positionals.length !== inputs) {
        throw new UsageError(inputs === 1 ? 'give exactly one input file' : `give exactly ${inputs} input files`);
      }
      const out = values.output;
      if (typeof out !== 'string' || out === '') throw new UsageError('-o OUT is required');
      const read: { motion: Motion; bytes: Uint8Array }[] = [];
      for (const p of positionals) {
        const r = await readInput(p, spec.name, io);
        if (!r) return 1;
        read.push(r);
      }
      let result: Motion;
      let report: string[] = [];
      let bytes: Uint8Array;
      try {
        const applied = spec.apply(read.map((r) => r.motion), values);
        if ('gltf' in applied) result = applied;
        else ({ motion: result, report } = applied);
        bytes = writeVrma(result);
      } catch (e) {
        if (!(e instanceof MotionError)) throw e;
        io.err(`vrma-studio ${spec.name}: ${e.message}`);
        return 1;
      }
      try {
        await writeFileAtomic(out, bytes, { overwrite: values.force === true });
      } catch (e) {
        if (e instanceof FileExistsError) {
          io.err(`vrma-studio ${spec.name}: ${out} already exists; use --force to replace it`);
          return 1;
        }
        io.err(`vrma-studio ${spec.name}: cannot write ${out}: ${(e as Error).message}`);
        return 1;
      }
      const keys = result.channels.reduce((s, c) => s + c.times.length, 0);
      io.out(`wrote ${out} (${bytes.length} bytes, ${durationOf(result).toFixed(3)} s, ${result.channels.length} tracks, ${keys} keys)`);
      for (const line of report) io.out(`  ${line}`);
      for (const line of spec.afterWrite?.(read.map((r) => r.motion), result, read.map((r) => r.bytes), bytes) ?? []) io.out(`  ${line}`);
      const known = new Set(read.flatMap((r) => r.motion.warnings));
      for (const w of result.warnings) if (!known.has(w)) io.out(`  note: ${w}`);
      return 0;
    },
  };
}
