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
import { builtInClips } from '../../../renderer/bedroom/poseSources';

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
}

/** The real room and rig; `arrangeRoom` may move the room root before the poses are measured. */
export async function bedroomScene(avatarBytes: Uint8Array, arrangeRoom?: (room: Room) => void): Promise<TestScene> {
  const vrm = await loadVrmInNode(avatarBytes);
  const room = buildRoom();
  arrangeRoom?.(room);
  const clips = await builtInClips(vrm);
  const rig = new BedroomRig(vrm, room.root, room.bed, room.standing, clips.idle);
  rig.setPose('back', clips.back, 'built-in back pose');
  rig.setPose('side', clips.side, 'built-in side pose');
  return { vrm, room, rig };
}
