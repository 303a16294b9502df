import { packGlb } from '../shared/gltf/glb';
import { readFixture } from './fixtures';

/** three-vrm's cube man (a multi-file .gltf) as one self-contained GLB, images left out. */
export function cubeGlb(): Uint8Array {
  const dir = ['vrm1', 'three-vrm-core-cube'];
  const json = JSON.parse(new TextDecoder().decode(readFixture(...dir, 'cube.gltf'))) as Record<string, any>;
  const bins = (json.buffers as { uri: string }[]).map((b) => readFixture(...dir, b.uri));
  const starts: number[] = [];
  let total = 0;
  for (const b of bins) {
    starts.push(total);
    total += (b.length + 3) & ~3;
  }
  const bin = new Uint8Array(total);
  bins.forEach((b, i) => bin.set(b, starts[i]));
  for (const v of json.bufferViews) {
    v.byteOffset = (v.byteOffset ?? 0) + starts[v.buffer];
    v.buffer = 0;
  }
  json.buffers = [{ byteLength: total }];
  delete json.images;
  delete json.textures;
  if (json.extensions?.VRMC_vrm?.meta) delete json.extensions.VRMC_vrm.meta.thumbnailImage;
  return packGlb(json, bin);
}
