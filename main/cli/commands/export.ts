/**
 * `vrma-studio export IN --to vmd|bvh|glb|fbx [-o OUT] [options]`: a motion out of VRM Animation
 * into MMD, BVH, glTF binary or FBX, by the pure writers of shared/export/. Without -o the file goes
 * next to the source under the project's naming rule (walk.vmd, then walk-2.vmd; never the source).
 * Prints where it wrote and what the format could not carry.
 */
import { readFile, stat } from 'node:fs/promises';
import { UsageError, numberOption, oneInput, readInputFile, writeOutputFile, type CliCommand } from '../command';
import { convertToMotion, isMotionFile } from '../../../shared/formats/index';
import { EXPORT_FORMATS, type ExportFormat, type ExportResult } from '../../../shared/export/index';
import { exportMotion } from '../../../shared/formats/codecs';
import type { Motion } from '../../../shared/motion/types';
import { MotionError } from '../../../shared/errors';
import { fileFailure } from '../../../shared/fileProblem';
import { exportTargetAs } from '../../../shared/formats/outputNames';

const FORMATS = EXPORT_FORMATS;

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function choice<T extends string>(values: Record<string, unknown>, name: string, allowed: readonly T[]): T | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${String(v)}"`);
  return v as T;
}

interface Inputs {
  readonly model?: Uint8Array;
  readonly avatar?: Uint8Array;
}

function write(format: ExportFormat, motion: Motion, values: Record<string, unknown>, inputs: Inputs): ExportResult {
  const fps = values.fps === undefined ? undefined : numberOption(values, 'fps');
  switch (format) {
    case 'vmd':
      return exportMotion('vmd', motion, { model: inputs.model, fps, ik: choice(values, 'ik', ['off', 'legs'] as const) === 'legs' ? 'legs' : 'off' });
    case 'bvh':
      return exportMotion('bvh', motion, { fps, avatar: inputs.avatar, order: choice(values, 'order', ['ZXY', 'XYZ'] as const), units: choice(values, 'units', ['cm', 'm'] as const) });
    case 'glb':
      return exportMotion('glb', motion, { fps, avatar: inputs.avatar, plain: values.plain === true });
    case 'fbx':
      return exportMotion('fbx', motion, { fps, avatar: inputs.avatar });
  }
}

async function readInput(path: string | undefined, what: string): Promise<Uint8Array | undefined> {
  if (path === undefined) return undefined;
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    throw new UsageError(`${what} ${fileFailure(e, path)}`);
  }
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a motion to MMD (.vmd), BVH, glTF binary (.glb, baked on an avatar) or FBX',
  usage: [
    'Usage: vrma-studio export IN --to vmd|bvh|glb|fbx [-o OUT] [--force] [options]',
    '',
    'IN is a .vrma (or any motion the studio reads, converted on the fly). Without -o, OUT is NAME.vmd',
    '(or .bvh/.glb/.fbx) beside IN, NAME-2.vmd if that exists; never IN itself. Prints what the format',
    'could not carry (expressions, gaze, bones the target skeleton lacks).',
    '',
    'Options:',
    '  --to FORMAT        vmd, bvh, glb or fbx (required)',
    '  -o, --output OUT   the file to write (written atomically; an existing OUT only with --force)',
    '  --force            replace OUT if it exists',
    '  --fps N            frame rate of the written keys (BVH, GLB, FBX; default 30; VMD is always 30)',
    '  --model X.pmx      VMD: the MMD model (.pmx or .pmd) to write for (default: the standard bones)',
    '  --ik off|legs      VMD: FK keys with leg IK off (default), or leg IK targets keyed and on',
    "  --avatar A.vrm     BVH/FBX: take the avatar's proportions; GLB: the avatar to bake onto (required;",
    '                     a .vrm, or a plain humanoid .glb with Mixamo/Blender-style bone names)',
    '  --plain            GLB: a plain glTF (VRM extensions left out) instead of a VRM carrying the motion',
    '  --order ZXY|XYZ    BVH: rotation channel order (default ZXY)',
    '  --units cm|m       BVH: units of offsets and positions (default cm)',
  ].join('\n'),
  options: {
    to: { type: 'string' },
    output: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
    fps: { type: 'string' },
    model: { type: 'string' },
    ik: { type: 'string' },
    avatar: { type: 'string' },
    plain: { type: 'boolean' },
    order: { type: 'string' },
    units: { type: 'string' },
  },
  async run(positionals, values, io) {
    const input = oneInput(positionals);
    if (!isMotionFile(input)) throw new UsageError(`${input}: expected a motion file (.vrma, .bvh, .vmd, .vpd, .fbx, .glb)`);
    const format = choice(values, 'to', FORMATS);
    if (!format) throw new UsageError(`--to is required: one of ${FORMATS.join(', ')}`);
    if (format === 'glb' && values.avatar === undefined) throw new UsageError('--to glb needs --avatar A.vrm (the avatar the motion is baked onto)');
    const inputs: Inputs = {
      model: await readInput(values.model as string | undefined, '--model'),
      avatar: await readInput(values.avatar as string | undefined, '--avatar'),
    };
    const bytes = await readInputFile('export', input, io);
    if (!bytes) return 1;
    let result: ExportResult;
    try {
      result = write(format, convertToMotion(input, bytes), values, inputs);
    } catch (e) {
      if (!(e instanceof MotionError)) throw e;
      io.err(`vrma-studio export: ${input}: ${e.message}`);
      return 1;
    }
    const explicit = typeof values.output === 'string' && values.output !== '' ? values.output : undefined;
    if (explicit !== undefined && explicit === input) throw new UsageError('OUT must not be the input file');
    const out = explicit ?? (await exportTargetAs(input, format, exists, values.force === true));
    if (!(await writeOutputFile('export', out, result.bytes, values.force === true, io))) return 1;
    io.out(`wrote ${out} (${result.bytes.length} bytes, ${result.frames} frames at ${result.fps} fps)`);
    for (const w of result.report) io.out(`  left out: ${w.text}`);
    return 0;
  },
};
