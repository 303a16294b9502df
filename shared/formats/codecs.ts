/**
 * The heavy half of the format table (shared/formats/formats.ts): for each format id its reader,
 * its take lister, `describe` (kind, duration, fps, takes: through the same reader the studio opens
 * the file with, so a file the library calls readable is one the studio opens) and, where there is
 * one, its writer. The type makes a format of FORMATS without a codec a compile error.
 *
 * A format's writer is its `write` here, the exporters of shared/export plugged in as they are (one
 * field, no switch arm): writeMotion (by file name) and exportMotion (by export format) are the one
 * dispatch the CLI's export and the studio's Export go through. shared/export imports nothing of this
 * module, so the table depends on the writers and never the other way round (architecture.test.ts).
 * The studio's first chunk never imports this module (renderer/app/core.ts loads it on first use).
 */
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { fail } from '../errors';
import { readVrma } from '../vrma/read';
import { writeVrma } from '../vrma/write';
import { EXPORTERS, type BvhExportOptions, type ExportFormat, type ExportResult, type FbxExportOptions, type GlbExportOptions, type VmdExportOptions } from '../export/index';
import type { MotionWarning } from '../warnings';
import { estimateFps } from '../vrma/summary';
import { convertBvh } from '../convert/bvh/convertBvh';
import { parseBvh } from '../convert/bvh/parse';
import type { BvhUnit } from '../convert/humanoid/bodyFrame';
import { convertVmd, convertVpd } from '../convert/mmd/index';
import { parseVmd, VMD_FPS } from '../convert/mmd/vmd';
import { parseVpd } from '../convert/mmd/vpd';
import { parsePmxBones } from '../convert/mmd/pmx';
import { isPmd, parsePmdBones } from '../convert/mmd/pmd';
import { convertFbx, convertFbxTake, listFbxTakes, readFbx, takeInfo, type TakeInfo } from '../convert/fbx/convertFbx';
import { convertGltf, convertGltfTake, listGltfTakes, readGltf } from '../convert/gltf/convertGltf';
import { gltfKind } from './gltfKind';
import { preferredTake } from './preferredTake';
import { extensionOf, FORMATS, formatOf, formatsOf, MOTION_EXTENSIONS, STUDIO_FILE_EXTENSIONS, TAKE_EXTENSIONS, type Format, type FormatId, type FormatKind } from './formats';

export interface ConvertOptions {
  /** Output key rate (BVH: default the file's rate; VMD: default 30). */
  readonly fps?: number;
  /** The MMD model a .vmd/.vpd was made for (bone rest positions); used when it fits the motion (mmd/modelFit.ts). */
  readonly pmx?: Uint8Array;
  /** Use `pmx` even when it does not fit the motion (the CLI's --pmx). */
  readonly forceModel?: boolean;
  /** Units of a .bvh file; default detected from the skeleton's size. */
  readonly unit?: BvhUnit;
  /** The take of an .fbx/.glb/.gltf to convert (AnimationStack or animation name); default the first. */
  readonly take?: string;
  /**
   * A .vmd's keys: 'vmd', the VMD's own keys with its curves as Bézier keys (the studio's import, to
   * edit as MMD users do), or 'everyFrame' (the default: a file other players read plays the same in
   * all of them, and three-vrm-animation 3.5 misplays cubic keys; see the compatibility check).
   */
  readonly keys?: 'vmd' | 'everyFrame';
}

/** What a file is, as its format's reader sees it (the library's details; `vrma-studio info`). */
export interface FormatDescription {
  readonly kind: FormatKind;
  /** Seconds (a file with takes: its first take, the one opened by default); 0 for a pose; absent for avatars and models. */
  readonly duration?: number;
  readonly fps?: number;
  /** The takes of a file that has them (also of a VRM avatar that carries animations). */
  readonly takes?: readonly TakeInfo[];
}

/** A parsed FBX/glTF file whose takes convert one by one without parsing it again (batch workers keep one). */
export interface TakeSource {
  readonly takes: readonly TakeInfo[];
  convert(take: string | undefined, opts?: { fps?: number }): Motion;
}

/** What a writer may need besides the motion: every exporter's options (each reads its own). */
export type WriteOptions = VmdExportOptions & BvhExportOptions & GlbExportOptions & FbxExportOptions;

/** A written file: its bytes, what the format could not carry, and (for the sampled formats) the grid. */
export interface WrittenMotion {
  readonly bytes: Uint8Array;
  readonly report: readonly MotionWarning[];
  readonly frames?: number;
  readonly fps?: number;
}

/** A format's writer: the extension it writes (a .gltf is read but only .glb written) and the pure writer. */
export interface MotionWriter {
  /** File extension without the dot. */
  readonly ext: string;
  write(motion: Motion, opts?: WriteOptions): WrittenMotion;
}

export interface FormatCodec {
  /** The file as one motion (the first take of a file with several, or `opts.take`). */
  read?(bytes: Uint8Array, opts: ConvertOptions): Motion;
  /** The takes of a file that has them. */
  listTakes?(bytes: Uint8Array): TakeInfo[];
  /** The file parsed once, its takes converted on demand. */
  openTakes?(bytes: Uint8Array): TakeSource;
  /** Throws the reader's MotionError for a file the studio could not open. */
  describe(bytes: Uint8Array, fileName: string): FormatDescription;
  /** How many leading bytes `describe` needs (default the whole file; 0: none, the extension says it all). */
  readonly describeBytes?: number;
  /** A motion written in this format (shared/export's exporter, or the .vrma writer). */
  readonly write?: MotionWriter;
}

const byDuration = (duration: number, fps?: number): FormatDescription => ({ kind: duration > 0 ? 'motion' : 'pose', duration, ...(fps ? { fps } : {}) });

/** A file with takes: its first take's duration and every take; no take at all is unreadable. */
function byTakes(takes: readonly TakeInfo[], kind: 'motion' | 'avatar'): FormatDescription {
  if (kind === 'avatar') return { kind, takes };
  if (!takes.length) fail('NO_KEYS', 'gltf.noAnimations');
  // The library shows the take the studio opens: the longest keyed one, not an empty "Take 001".
  const first = preferredTake(takes)!;
  return { kind: first.duration > 0 || takes.length > 1 ? 'motion' : 'pose', duration: first.duration, fps: first.fps, takes };
}

function missingTake(take: string, names: readonly string[]): never {
  return fail('BAD_PARAMETER', 'take.unknown', { take, takes: names.map((n) => `“${n}”`).join(', ') });
}

export const CODECS: { readonly [K in FormatId]: FormatCodec } = {
  vrma: {
    read: (bytes) => readVrma(bytes),
    describe(bytes) {
      const motion = readVrma(bytes);
      return byDuration(durationOf(motion), estimateFps(motion) ?? undefined);
    },
    write: { ext: 'vrma', write: (motion) => ({ bytes: writeVrma(motion), report: [] }) },
  },
  vmd: {
    write: EXPORTERS.vmd,
    read: (bytes, opts) => convertVmd(bytes, { pmx: opts.pmx, fps: opts.fps, forceModel: opts.forceModel, keys: opts.keys ?? 'everyFrame' }),
    describe: (bytes) => byDuration(parseVmd(bytes).lastFrame / VMD_FPS, VMD_FPS),
  },
  vpd: {
    read: (bytes, opts) => convertVpd(bytes, { pmx: opts.pmx, forceModel: opts.forceModel }),
    describe: (bytes) => (parseVpd(bytes), { kind: 'pose', duration: 0 }),
  },
  bvh: {
    write: EXPORTERS.bvh,
    read: (bytes, opts) => convertBvh(bytes, { fps: opts.fps, unit: opts.unit }),
    describe(bytes) {
      const bvh = parseBvh(bytes);
      return byDuration(Math.max(0, bvh.frameCount - 1) * bvh.frameTime, 1 / bvh.frameTime);
    },
  },
  fbx: {
    write: EXPORTERS.fbx,
    read: (bytes, opts) => convertFbx(bytes, { fps: opts.fps, take: opts.take }),
    listTakes: (bytes) => listFbxTakes(bytes),
    openTakes(bytes) {
      const source = readFbx(bytes);
      const stacks = source.scene.stacks;
      const takes = stacks.map((s) => takeInfo(source.scene, s));
      return {
        takes,
        convert(take, opts = {}) {
          if (!stacks.length) fail('NO_KEYS', 'fbx.noTakes');
          const stack = take === undefined ? stacks[takes.indexOf(preferredTake(takes)!)] : stacks.find((s) => s.name === take) ?? missingTake(take, stacks.map((s) => s.name));
          return convertFbxTake(source, stack, opts).motion;
        },
      };
    },
    describe: (bytes) => byTakes(listFbxTakes(bytes), 'motion'),
  },
  gltf: {
    write: EXPORTERS.glb,
    read: (bytes, opts) => convertGltf(bytes, { fps: opts.fps, take: opts.take }),
    listTakes: (bytes) => listGltfTakes(bytes),
    openTakes(bytes) {
      const source = readGltf(bytes);
      const anims = source.animations;
      const takes = listGltfTakes(bytes);
      return {
        takes,
        convert(take, opts = {}) {
          if (!anims.length) fail('NO_KEYS', 'gltf.noAnimations');
          const anim = take === undefined ? anims[takes.indexOf(preferredTake(takes)!)] : anims.find((a) => a.name === take) ?? missingTake(take, anims.map((a) => a.name));
          return convertGltfTake(source, anim, opts).motion;
        },
      };
    },
    describe(bytes, fileName) {
      // A VRM (or a model without animations) named .glb is an avatar; with animations it is both. A
      // .gltf is never an avatar here (the avatar loader reads .vrm and .glb only).
      const kind = gltfKind(bytes);
      if (kind === 'avatar' && extensionOf(fileName) !== '.glb') fail('NO_KEYS', 'gltf.noAnimations');
      return kind === 'avatar' ? { kind: 'avatar' } : byTakes(listGltfTakes(bytes), kind === 'motion' ? 'motion' : 'avatar');
    },
  },
  // The avatar loader (renderer/avatar) reads VRM files with three-vrm; the core only knows what they are.
  vrm: { describeBytes: 0, describe: () => ({ kind: 'avatar' }) },
  // A video is decoded by the browser engine and captured in the page (renderer/capture); the core only knows what it is.
  video: { describeBytes: 0, describe: () => ({ kind: 'video' }) },
  mmdModel: {
    describe(bytes) {
      // The same bone-table parse the converter runs on the model (renderer/app/core.ts checkMmdModel).
      if (isPmd(bytes)) parsePmdBones(bytes);
      else parsePmxBones(bytes);
      return { kind: 'model' };
    },
  },
};

function unknownFormat(fileName: string, expected: readonly string[], _what: string): never {
  const formats = expected.join(', ');
  return fail('UNSUPPORTED', 'convert.unknownFormat', { file: fileName, formats });
}

/** The codec a file goes through (formatOf: a .glb is read as glTF); UNSUPPORTED for an unknown extension. */
export function codecOf(fileName: string): FormatCodec {
  const format = formatOf(fileName);
  return format ? CODECS[format.id] : unknownFormat(fileName, STUDIO_FILE_EXTENSIONS, 'file');
}

/** Kind, duration, fps and takes of a file, by its format's own reader; throws that reader's MotionError. */
export function describeFormat(fileName: string, bytes: Uint8Array): FormatDescription {
  return codecOf(fileName).describe(bytes, fileName);
}

/** Reads any motion file as one motion: .vrma as is, every other motion format converted. */
export function readMotion(fileName: string, bytes: Uint8Array, opts: ConvertOptions = {}): Motion {
  const read = formatOf(fileName) ? codecOf(fileName).read : undefined;
  return read ? read(bytes, opts) : unknownFormat(fileName, MOTION_EXTENSIONS, 'motion');
}

/** The formats a motion can be written as (the CLI's and the studio's export choices). */
export function writableFormats(): Format[] {
  return FORMATS.filter((f) => CODECS[f.id].write);
}

const writtenExtension = (f: Format) => `.${CODECS[f.id].write!.ext}`;

/** A motion as the file `fileName` names, by its extension's writer; UNSUPPORTED where there is none. */
export function writeMotion(fileName: string, motion: Motion, opts: WriteOptions = {}): WrittenMotion {
  const ext = extensionOf(fileName);
  const writer = formatsOf(fileName).map((f) => CODECS[f.id].write).find((w) => w !== undefined && `.${w.ext}` === ext);
  if (writer) return writer.write(motion, opts);
  const formats = writableFormats().map(writtenExtension).join(', ');
  return fail('UNSUPPORTED', 'convert.noWriter', { file: fileName, formats });
}

/** The motion in an export format (the CLI's --to, the studio's Export to), through the same table. */
export function exportMotion(format: ExportFormat, motion: Motion, opts: WriteOptions = {}): ExportResult {
  const writer = FORMATS.map((f) => CODECS[f.id].write).find((w) => w?.ext === format)!;
  const out = writer.write(motion, opts);
  // Every export format samples on a fixed grid: its writer reports frames and fps.
  return { ...out, frames: out.frames ?? 0, fps: out.fps ?? 0 };
}

/** The codec of a file that holds takes; UNSUPPORTED for any other. */
function takeCodec(fileName: string): Required<Pick<FormatCodec, 'listTakes' | 'openTakes'>> {
  const codec = formatOf(fileName) ? codecOf(fileName) : undefined;
  if (codec?.listTakes && codec.openTakes) return { listTakes: codec.listTakes, openTakes: codec.openTakes };
  const formats = TAKE_EXTENSIONS.join(', ');
  return fail('UNSUPPORTED', 'take.notTakeFile', { file: fileName, formats });
}

/** The takes of an FBX/glTF file (name, duration, fps, keys); throws MotionError for a bad file or an avatar. */
export function listTakes(fileName: string, bytes: Uint8Array): TakeInfo[] {
  return takeCodec(fileName).listTakes(bytes);
}

export function openTakes(fileName: string, bytes: Uint8Array): TakeSource {
  return takeCodec(fileName).openTakes(bytes);
}
