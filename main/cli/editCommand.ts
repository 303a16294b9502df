/**
 * Every motion-edit subcommand, built from its entry in the edit registry (shared/edits/registry.ts):
 * flags, usage and validation come from there. Each reads one or two .vrma files, applies the pure edit,
 * writes OUT atomically (an existing OUT only with --force) and reports.
 */
import { readFile } from 'node:fs/promises';
import { numberOption, requiredOutput, UsageError, writeOutputFile, type CliCommand, type CliIO } from './command';
import type { Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { MotionError } from '../../shared/errors';
import { readAvatarSkeleton, type AvatarSkeleton } from '../../shared/avatar/avatarSkeleton';
import { formatNumber, rangeText, runEdit, type EditDefinition, type EditInput, type EditParam, type ParamUnit, type ParamValues } from '../../shared/edits/registry';
import { fileFailure } from '../../shared/fileProblem';

type Values = Record<string, string | boolean | string[] | undefined>;

const METAVAR: Record<ParamUnit, string> = { s: 'S', rad: 'RAD', m: 'M', 'm/s': 'V', fps: 'N', '': 'F' };

/** The CLI flag of a parameter: booleans that are on by default are turned off with --no-NAME. */
export function flagOf(p: EditParam): string {
  return p.kind === 'boolean' && p.default ? `no-${p.name}` : p.name;
}

function synopsis(def: EditDefinition): string {
  const parts = [def.other ? 'A B' : 'IN'];
  if (def.range === 'required') parts.push('--from S --to S');
  if (def.range === 'optional') parts.push('[--from S --to S]');
  if (def.time) parts.push('--at S');
  if (def.avatar) parts.push('--avatar AVATAR.vrm');
  for (const p of def.params) {
    if (p.kind === 'boolean') parts.push(`[--${flagOf(p)}]`);
    else if (p.default === undefined) parts.push(`--${p.name} ${METAVAR[p.unit]}`);
    else parts.push(`[--${p.name} ${METAVAR[p.unit]}]`);
  }
  return parts.join(' ');
}

const option = (flag: string, text: string) => `  ${flag.padEnd(18)} ${text}`;

/** One help line per parameter: what it is, the accepted values and the default (or "required"). */
export function paramHelp(p: EditParam): string {
  if (p.kind === 'boolean') {
    return p.default ? option(`--no-${p.name}`, `do not ${p.help} (done by default)`) : option(`--${p.name}`, p.help);
  }
  const unit = p.unit === '' ? '' : ` ${p.unit}`;
  const dflt = p.default === undefined ? 'required' : `default ${formatNumber(p.default)}${unit}`;
  return option(`--${p.name} ${METAVAR[p.unit]}`, `${p.help}, ${rangeText(p)} (${dflt})`);
}

function usage(def: EditDefinition): string {
  const lines = [`Usage: vrma-studio ${def.id} ${synopsis(def)} -o OUT [--force]`, '', ...def.description, '', 'Options:'];
  if (def.range) {
    const need = def.range === 'required' ? 'required' : 'optional; without a range the whole motion';
    lines.push(option('--from S', `start of the range, seconds (${need})`), option('--to S', `end of the range, seconds (${need})`));
  }
  if (def.time) lines.push(option('--at S', 'the time the edit acts at, seconds (required)'));
  if (def.avatar) lines.push(option('--avatar AVATAR.vrm', 'the avatar (VRM 0.x or 1.0) to fit to (required)'));
  lines.push(...def.params.map(paramHelp));
  lines.push(option('-o, --output OUT', 'the file to write (required; written atomically)'));
  lines.push(option('--force', 'replace OUT if it exists (otherwise an existing OUT is refused)'));
  return lines.join('\n');
}

function options(def: EditDefinition): CliCommand['options'] {
  const opts: CliCommand['options'] = { output: { type: 'string', short: 'o' }, force: { type: 'boolean' } };
  if (def.range) Object.assign(opts, { from: { type: 'string' }, to: { type: 'string' } });
  if (def.time) opts.at = { type: 'string' };
  if (def.avatar) opts.avatar = { type: 'string' };
  for (const p of def.params) opts[flagOf(p)] = { type: p.kind === 'boolean' ? 'boolean' : 'string' };
  return opts;
}

/** The registry's parameter values from the parsed flags (numbers checked as numbers; ranges later). */
function paramValues(def: EditDefinition, values: Values): Record<string, number | boolean | undefined> {
  const out: Record<string, number | boolean | undefined> = {};
  for (const p of def.params) {
    if (p.kind === 'boolean') out[p.name] = p.default ? values[flagOf(p)] !== true : values[p.name] === true;
    else out[p.name] = numberOption(values, p.name, p.default);
  }
  return out;
}

/** The range flags: both required, or (optional range) each defaulting to its end of the motion. */
function rangeOf(def: EditDefinition, values: Values): ((m: Motion) => EditInput['range']) | null {
  if (!def.range) return null;
  if (def.range === 'required') {
    const from = numberOption(values, 'from');
    const to = numberOption(values, 'to');
    return () => ({ from, to });
  }
  if (values.from === undefined && values.to === undefined) return () => undefined;
  const from = numberOption(values, 'from', 0);
  const to = values.to === undefined ? undefined : numberOption(values, 'to');
  return (m) => ({ from, to: to ?? durationOf(m) });
}

async function readInput(path: string, cmd: string, io: CliIO): Promise<{ motion: Motion; bytes: Uint8Array } | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    io.err(`vrma-studio ${cmd}: ${fileFailure(e, path)}`);
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

export function editCommand(def: EditDefinition): CliCommand {
  const inputs = def.other ? 2 : 1;
  return {
    name: def.id,
    summary: def.summary,
    usage: usage(def),
    options: options(def),
    async run(positionals, values, io) {
      if (positionals.length !== inputs) {
        throw new UsageError(inputs === 1 ? 'give exactly one input file' : `give exactly ${inputs} input files`);
      }
      const out = requiredOutput(values);
      const given = paramValues(def, values);
      const rangeFor = rangeOf(def, values);
      const time = def.time ? numberOption(values, 'at') : undefined;
      const read: { motion: Motion; bytes: Uint8Array }[] = [];
      for (const p of positionals) {
        const r = await readInput(p, def.id, io);
        if (!r) return 1;
        read.push(r);
      }
      let avatar: AvatarSkeleton | undefined;
      if (def.avatar) {
        const file = values.avatar;
        if (typeof file !== 'string' || file === '') throw new UsageError('--avatar AVATAR.vrm is required');
        let bytes: Uint8Array;
        try {
          bytes = new Uint8Array(await readFile(file));
        } catch (e) {
          io.err(`vrma-studio ${def.id}: ${fileFailure(e, file)}`);
          return 1;
        }
        try {
          avatar = readAvatarSkeleton(bytes, file);
        } catch (e) {
          if (!(e instanceof MotionError)) throw e;
          io.err(`vrma-studio ${def.id}: ${file}: ${e.message}`);
          return 1;
        }
      }
      const input: EditInput = { motion: read[0].motion, other: read[1]?.motion, range: rangeFor?.(read[0].motion), time, avatar };
      let result: Motion;
      let report: string[];
      let params: ParamValues;
      let bytes: Uint8Array;
      try {
        ({ motion: result, report, params } = runEdit(def, input, given));
        bytes = writeVrma(result, def.write?.(params));
      } catch (e) {
        if (!(e instanceof MotionError)) throw e;
        io.err(`vrma-studio ${def.id}: ${e.message}`);
        return 1;
      }
      if (!(await writeOutputFile(def.id, out, bytes, values.force === true, io))) return 1;
      const keys = result.channels.reduce((s, c) => s + c.times.length, 0);
      io.out(`wrote ${out} (${bytes.length} bytes, ${durationOf(result).toFixed(3)} s, ${result.channels.length} tracks, ${keys} keys)`);
      for (const line of report) io.out(`  ${line}`);
      if (inputs === 1) {
        const before = read[0].bytes.length;
        io.out(`  bytes ${before} -> ${bytes.length} (${((100 * bytes.length) / Math.max(1, before)).toFixed(1)}%)`);
      }
      for (const line of def.measure?.(input, result, params) ?? []) io.out(`  ${line}`);
      const known = new Set(read.flatMap((r) => r.motion.warnings.map((w) => w.text)));
      for (const w of result.warnings) if (!known.has(w.text)) io.out(`  note: ${w.text}`);
      return 0;
    },
  };
}
