/**
 * FBX and glTF conversion speed per fixture: every take of the file parsed, recognised, sampled,
 * retargeted, grounded and built (frames per second of output), beside the peer users know: three.js
 * FBXLoader/GLTFLoader parsing the same bytes (meshes and all) to AnimationClips, in alternating rounds
 * so a busy machine slows both alike. `BENCH_FILTER=takeConversion node --import tsx bench/run.ts`.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { convertFbxTakes } from '../shared/convert/fbx/convertFbx';
import { convertGltfTakes } from '../shared/convert/gltf/convertGltf';
import { printTable, timeRounds } from './timing';

const DIR = join(__dirname, '..', '..', 'shared', 'fixtures');
const FILES = [
  'fbx/quaternius_animated_human.fbx',
  'fbx/quaternius_male_casual.fbx',
  'fbx/quaternius_robot.fbx',
  'fbx/ufbx_maya_kenney_character_7700_binary.fbx',
  'gltf/kaykit_rig_medium_general.glb',
  'gltf/kaykit_rig_medium_movement_basic.glb',
  'gltf/robot_expressive.glb',
];

export async function run(): Promise<void> {
  if (!existsSync(DIR)) {
    console.log(`takeConversion: fixtures not found at ${DIR}; skipped`);
    return;
  }
  const rows: string[][] = [];
  const warn = console.warn;
  console.warn = () => undefined; // FBXLoader's skin-weight notices
  try {
    for (const file of FILES) {
      const bytes = new Uint8Array(readFileSync(join(DIR, file)));
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const fbx = file.endsWith('.fbx');
      const ours = () => (fbx ? convertFbxTakes(bytes) : convertGltfTakes(bytes));
      const three = () => (fbx ? new FBXLoader().parse(buffer, '') : new GLTFLoader().parseAsync(buffer, ''));
      const takes = ours();
      const frames = takes.reduce((s, t) => s + (t.motion.channels[0]?.times.length ?? 0), 0);
      const [a, b] = await timeRounds([{ label: 'ours', fn: ours }, { label: 'three', fn: three }], 5);
      rows.push([file, String(takes.length), String(frames), a.ms.toFixed(0), ((frames / a.ms) * 1000).toFixed(0), b.ms.toFixed(0), (a.ms / b.ms).toFixed(2)]);
    }
  } finally {
    console.warn = warn;
  }
  printTable('FBX/glTF conversion (all takes of a file)', ['file', 'takes', 'frames', 'ms', 'frames/s', 'three.js load ms', 'ours/three'], rows);
}
