/**
 * Reading a motion file in whichever thread runs this (the page, or the motion file worker): .vrma
 * directly, every other motion format of the table (shared/formats/formats.ts) through its codec, loaded on first use (import.meta.glob: a
 * build without them disables the feature with a clear message instead of breaking the studio).
 */
import { extensionOf, formatLabel, formatList, isConvertible, STUDIO_FILE_EXTENSIONS, VRMA_EXTENSION } from '../../shared/formats/formats';
import type { Motion } from '../../shared/motion/types';
import type { TakeSource } from '../../shared/formats/codecs';
import { readVrma } from '../../shared/vrma/read';
import { fail } from '../../shared/errors';
import { meshoptReady } from '../../shared/gltf/meshopt';

type ConvertModule = {
  convertToMotion(fileName: string, bytes: Uint8Array, opts?: Record<string, unknown>): Motion | { motion: Motion; warnings?: readonly string[] } | Promise<Motion | { motion: Motion }>;
};

const convertModules = import.meta.glob<ConvertModule>('../../shared/formats/index.ts');
// The takes module of the core (the same one `vrma-studio convert --list-takes` reads): list and convert takes.
const takeModules = import.meta.glob<typeof import('../../shared/formats/takes')>('../../shared/formats/takes.ts');

export async function firstModule<T>(mods: Record<string, () => Promise<T>>): Promise<T | null> {
  const load = Object.values(mods)[0];
  return load ? load() : null;
}

function asMotion(result: Motion | { motion: Motion } | Uint8Array): Motion {
  if (result instanceof Uint8Array) return readVrma(result);
  return 'motion' in result && !('channels' in result) ? result.motion : (result as Motion);
}

export async function readMotionFileHere(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<{ motion: Motion; convertedFrom?: string }> {
  const ext = extensionOf(name);
  if (ext === VRMA_EXTENSION) return { motion: readVrma(bytes) };
  if (!isConvertible(name)) fail('UNSUPPORTED', 'studio.notStudioFile', { file: name, formats: formatList(STUDIO_FILE_EXTENSIONS) });
  const mod = await firstModule(convertModules);
  await meshoptReady; // the synchronous readers need the (asynchronously compiled) meshopt decoder
  if (!mod) fail('UNSUPPORTED', 'studio.noConverter', { format: ext ?? '' });
  // A VMD opens with its own keys and curves, to edit as MMD users do (a conversion to a file keys every frame).
  const motion = asMotion(await mod.convertToMotion(name, bytes, { ...(opts.pmx ? { pmx: opts.pmx } : {}), keys: 'vmd' }));
  return { motion, convertedFrom: formatLabel(name) };
}

/**
 * An .fbx/.glb/.gltf parsed once, in whichever thread runs this: its takes (name, duration, fps, keys:
 * what the take picker lists) and a converter for any one of them (shared/formats/takes.ts).
 */
export async function openTakesHere(name: string, bytes: Uint8Array): Promise<TakeSource> {
  const mod = await firstModule(takeModules);
  await meshoptReady;
  if (!mod) fail('UNSUPPORTED', 'studio.noConverter', { format: extensionOf(name) });
  return mod.openTakes(name, bytes);
}
