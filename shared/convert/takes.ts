/**
 * Files that hold several motions ("takes"): FBX animation stacks and glTF animations. Listing them
 * (`vrma-studio convert --list-takes`), choosing one, and the output name of each: one take writes
 * NAME.vrma, several write NAME.TAKE.vrma with the take's name made safe for every file system.
 */
import { fail } from '../errors';
import { extensionOf, TAKE_EXTENSIONS } from './formats';
import type { Motion } from '../motion/types';
import { convertFbxTake, listFbxTakes, readFbx, takeInfo, type TakeInfo } from './fbx/convertFbx';
import { convertGltfTake, listGltfTakes, readGltf } from './gltf/convertGltf';

export { isMotionGltf } from './gltfKind';

export type { TakeInfo } from './fbx/convertFbx';

// Which files hold takes is listed with the other formats (formats.ts).
export { TAKE_EXTENSIONS, hasTakes } from './formats';

/** The takes of an FBX/glTF file (name, duration, fps, keys); throws MotionError for a bad file or an avatar. */
export function listTakes(fileName: string, bytes: Uint8Array): TakeInfo[] {
  const ext = extensionOf(fileName);
  if (ext === '.fbx') return listFbxTakes(bytes);
  if (ext === '.glb' || ext === '.gltf') return listGltfTakes(bytes);
  return fail('UNSUPPORTED', `${fileName}: only ${TAKE_EXTENSIONS.join(', ')} files have takes`, 'take.notTakeFile', { file: fileName, formats: TAKE_EXTENSIONS.join(', ') });
}

// Take names as file names (NAME.TAKE.vrma) need no converter: takeNames.ts, which the studio's first chunk reads.
export { safeTakeName, takeOutputs } from './takeNames';

/** A parsed FBX/glTF file whose takes convert one by one without parsing it again (batch workers keep one). */
export interface TakeSource {
  readonly takes: readonly TakeInfo[];
  convert(take: string | undefined, opts?: { fps?: number }): Motion;
}

export function openTakes(fileName: string, bytes: Uint8Array): TakeSource {
  const ext = extensionOf(fileName);
  const missing = (take: string, names: string[]) =>
    fail('BAD_PARAMETER', `no take named "${take}"; the takes are: ${names.map((n) => `"${n}"`).join(', ')}`, 'take.unknown', { take, takes: names.map((n) => `“${n}”`).join(', ') });
  if (ext === '.fbx') {
    const source = readFbx(bytes);
    const stacks = source.scene.stacks;
    return {
      takes: stacks.map((s) => takeInfo(source.scene, s)),
      convert(take, opts = {}) {
        if (!stacks.length) fail('NO_KEYS', 'the FBX file has no animation (no AnimationStack/take)', 'fbx.noTakes');
        const stack = take === undefined ? stacks[0] : stacks.find((s) => s.name === take) ?? missing(take, stacks.map((s) => s.name));
        return convertFbxTake(source, stack, opts).motion;
      },
    };
  }
  if (ext === '.glb' || ext === '.gltf') {
    const source = readGltf(bytes);
    const anims = source.animations;
    return {
      takes: listGltfTakes(bytes),
      convert(take, opts = {}) {
        if (!anims.length) fail('NO_KEYS', 'the glTF file has no animations', 'gltf.noAnimations');
        const anim = take === undefined ? anims[0] : anims.find((a) => a.name === take) ?? missing(take, anims.map((a) => a.name));
        return convertGltfTake(source, anim, opts).motion;
      },
    };
  }
  return fail('UNSUPPORTED', `${fileName}: only ${TAKE_EXTENSIONS.join(', ')} files have takes`, 'take.notTakeFile', { file: fileName, formats: TAKE_EXTENSIONS.join(', ') });
}

