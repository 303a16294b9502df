/**
 * The renderer's door to the motion core for reading files and the built-in assets. The
 * converters are loaded on first use (import.meta.glob: a build without them disables the feature
 * with a clear message instead of breaking the studio).
 */
import { extensionOf } from '../../shared/formats/formats';
import type { Motion } from '../../shared/motion/types';
import type { ExportFormat, ExportResult } from '../../shared/export/index';
import type { WriteOptions } from '../../shared/formats/codecs';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { builtinMannequin, builtinWalkTracks } from './builtinFiles';
import { buildMotion } from '../../shared/vrma/buildMotion';
import { makeWalkCycle } from '../../shared/assets/walkCycle';
import { fail } from '../../shared/errors';

import { firstModule, readMotionFileHere } from './motionFile';
import { OFF_THREAD_BYTES, openTakeFileOffThread, readMotionFileOffThread, type TakeFile } from './motionFiles';

export { readVrma, writeVrma };

/**
 * Reads a motion file: .vrma directly, .vmd/.vpd/.bvh converted on the fly; `convertedFrom` names the
 * source format ("VMD") so the UI can say what happened in its language. Files from OFF_THREAD_BYTES
 * up are read in a worker (motionFiles.ts), so the page keeps drawing while they are; `measured` settles
 * when what the worker measures of the motion after the read has landed (the commands it enables).
 */
export async function readMotionFile(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<{ motion: Motion; convertedFrom?: string; measured?: Promise<void> }> {
  return bytes.length >= OFF_THREAD_BYTES ? readMotionFileOffThread(name, bytes, opts) : readMotionFileHere(name, bytes, opts);
}

/**
 * An .fbx/.glb/.gltf parsed once, off the main thread (motionFiles.ts): its takes (name, duration,
 * fps, keys: what the take picker lists) and a converter for the one picked.
 */
export async function openTakeFile(name: string, bytes: Uint8Array): Promise<TakeFile> {
  return openTakeFileOffThread(name, bytes);
}

// The format table's writers (shared/formats/codecs.ts: the one export dispatch, the CLI's too), loaded on first export.
const codecModules = import.meta.glob<typeof import('../../shared/formats/codecs')>('../../shared/formats/codecs.ts');

/** The motion written in an export format by the format table's writer, with what it could not carry. */
export async function exportMotionFile(format: ExportFormat, motion: Motion, opts: WriteOptions = {}): Promise<ExportResult> {
  const mod = await firstModule(codecModules);
  if (!mod) fail('UNSUPPORTED', 'studio.noConverter', { format: `.${format}` });
  return mod.exportMotion(format, motion, opts);
}

const mmdModules = import.meta.glob<typeof import('../../shared/convert/mmd/index')>('../../shared/convert/mmd/index.ts');

/** Parses an MMD model's bone table (.pmx or .pmd) as the converter will: throws its MotionError when it cannot. */
export async function checkMmdModel(name: string, bytes: Uint8Array): Promise<void> {
  const mod = await firstModule(mmdModules);
  if (!mod) fail('UNSUPPORTED', 'studio.noConverter', { format: extensionOf(name) });
  if (mod.isPmd(bytes)) mod.parsePmdBones(bytes);
  else mod.parsePmxBones(bytes);
}

/** The built-in avatar, generated (static import: it is needed for the first frame, a lazy chunk would add a round trip). */
export async function mannequinBytes(version: '1.0' | '0.x' = '1.0'): Promise<Uint8Array | null> {
  // The build made the VRM 1.0 one already (builtinFiles.ts): fetched, not generated before the first frame.
  if (version === '1.0') {
    const built = await builtinMannequin();
    if (built) return built;
  }
  return makeMannequinVrm({ version });
}

export async function walkCycleMotion(): Promise<Motion | null> {
  // Its keys made by the build (builtinFiles.ts): only the Motion is built here, from the same numbers.
  const built = await builtinWalkTracks();
  return built ? buildMotion(built) : makeWalkCycle();
}
