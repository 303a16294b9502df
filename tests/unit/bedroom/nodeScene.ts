/**
 * The bedroom's scene pieces in Node: real avatars through GLTFLoader.parse, the real room and rig.
 * Node has no image decoder, so textures are skipped by a loader plugin (geometry and skeleton,
 * which is all placement needs, load as in the browser).
 */
import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { VRM } from '@pixiv/three-vrm';
import { loadVrm } from '../../../renderer/bedroom/loadVrm';
import { buildRoom, type Room } from '../../../renderer/bedroom/room';
import { BedroomRig } from '../../../renderer/bedroom/bedroomRig';
import { builtInClips, clipFromMotion, leftFromSide, type BuiltInPoses } from '../../../renderer/bedroom/poseSources';
import type { Motion } from '../../../shared/motion/types';

function skipTextures(parser: GLTFParser): GLTFLoaderPlugin {
  void parser;
  return { name: 'bedroom_test_skip_textures', loadTexture: () => Promise.resolve(null) } as unknown as GLTFLoaderPlugin;
}

export function loadVrmInNode(bytes: Uint8Array): Promise<VRM> {
  return loadVrm(bytes, [skipTextures]);
}

export interface TestScene {
  readonly vrm: VRM;
  readonly room: Room;
  readonly rig: BedroomRig;
  readonly poses: BuiltInPoses;
}

export interface SceneOptions {
  /** Moves the room root before the poses are measured. */
  readonly arrangeRoom?: (room: Room) => void;
  /** Replaces the standing idle. */
  readonly idle?: Motion;
}

/** The real room, rig and built-in poses (left = mirrored side), as mountBedroom sets them up. */
export async function bedroomScene(avatarBytes: Uint8Array, opts: SceneOptions = {}): Promise<TestScene> {
  const vrm = await loadVrmInNode(avatarBytes);
  const room = buildRoom();
  opts.arrangeRoom?.(room);
  const poses = await builtInClips(vrm);
  const idle = opts.idle ? await clipFromMotion(opts.idle, vrm) : poses.idle;
  const rig = new BedroomRig(vrm, room.root, room.bed, room.standing, idle, poses.sit, room.floorY, () => 0.5);
  rig.setPose('back', poses.back.clip, 'built-in back pose', poses.back.motion);
  rig.setPose('right', poses.side.clip, 'built-in side pose', poses.side.motion);
  const left = await leftFromSide(poses.side, vrm);
  rig.setPose('left', left.clip, 'built-in side pose (mirrored)', left.motion);
  return { vrm, room, rig, poses };
}
