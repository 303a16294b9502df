/**
 * The renderer's door to the motion core for reading files and the built-in assets. The
 * converters are loaded on first use (import.meta.glob: a build without them disables the feature
 * with a clear message instead of breaking the studio).
 */
import { extensionOf, formatLabel, formatList, isConvertible, STUDIO_FILE_EXTENSIONS, VRMA_EXTENSION } from '../../shared/convert/formats';
import type { Motion } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { makeWalkCycle } from '../../shared/assets/walkCycle';
import { fail } from '../../shared/errors';

export { readVrma, writeVrma };

type ConvertModule = {
  convertToMotion(fileName: string, bytes: Uint8Array, opts?: Record<string, unknown>): Motion | { motion: Motion; warnings?: readonly string[] } | Promise<Motion | { motion: Motion }>;
};

const convertModules = import.meta.glob<ConvertModule>('../../shared/convert/index.ts');
// The takes module of the core (the same one `vrma-studio convert --list-takes` reads): list and convert takes.
const takeModules = import.meta.glob<typeof import('../../shared/convert/takes')>('../../shared/convert/takes.ts');

async function firstModule<T>(mods: Record<string, () => Promise<T>>): Promise<T | null> {
  const load = Object.values(mods)[0];
  return load ? load() : null;
}

function asMotion(result: Motion | { motion: Motion } | Uint8Array): Motion {
  if (result instanceof Uint8Array) return readVrma(result);
  return 'motion' in result && !('channels' in result) ? result.motion : (result as Motion);
}

/**
 * Reads a motion file: .vrma directly, every other motion format of the table (shared/convert/formats.ts)
 * converted on the fly by its codec; `convertedFrom` names the source format ("VMD") so the UI can say
 * what happened in its language.
 */
export async function readMotionFile(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<{ motion: Motion; convertedFrom?: string }> {
  const ext = extensionOf(name);
  if (ext === VRMA_EXTENSION) return { motion: readVrma(bytes) };
  if (!isConvertible(name)) fail('UNSUPPORTED', `${name}: expected ${formatList(STUDIO_FILE_EXTENSIONS)}`, 'studio.notStudioFile', { file: name, formats: formatList(STUDIO_FILE_EXTENSIONS) });
  const mod = await firstModule(convertModules);
  if (!mod) fail('UNSUPPORTED', `${ext} conversion is not available in this build`, 'studio.noConverter', { format: ext ?? '' });
  const motion = asMotion(await mod.convertToMotion(name, bytes, opts.pmx ? { pmx: opts.pmx } : {}));
  return { motion, convertedFrom: formatLabel(name) };
}

/**
 * An .fbx/.glb/.gltf parsed once: its takes (name, duration, fps, keys: what the take picker lists)
 * and a converter for any one of them, from the core's takes module (shared/convert/takes.ts).
 */
export async function openTakeFile(name: string, bytes: Uint8Array): Promise<import('../../shared/convert/takes').TakeSource> {
  const mod = await firstModule(takeModules);
  if (!mod) fail('UNSUPPORTED', `${extensionOf(name)} conversion is not available in this build`, 'studio.noConverter', { format: extensionOf(name) });
  return mod.openTakes(name, bytes);
}

const mmdModules = import.meta.glob<typeof import('../../shared/convert/mmd/index')>('../../shared/convert/mmd/index.ts');

/** Parses an MMD model's bone table (.pmx or .pmd) as the converter will: throws its MotionError when it cannot. */
export async function checkMmdModel(name: string, bytes: Uint8Array): Promise<void> {
  const mod = await firstModule(mmdModules);
  if (!mod) fail('UNSUPPORTED', `${extensionOf(name)} models are not available in this build`, 'studio.noConverter', { format: extensionOf(name) });
  if (mod.isPmd(bytes)) mod.parsePmdBones(bytes);
  else mod.parsePmxBones(bytes);
}

/** The built-in avatar, generated (static import: it is needed for the first frame, a lazy chunk would add a round trip). */
export async function mannequinBytes(version: '1.0' | '0.x' = '1.0'): Promise<Uint8Array | null> {
  return makeMannequinVrm({ version });
}

export async function walkCycleMotion(): Promise<Motion | null> {
  return makeWalkCycle();
}
