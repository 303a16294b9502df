/**
 * Compressed avatars through the one avatar loader (renderer/avatar/loadAvatar.ts) in Node: real
 * fixture VRMs re-encoded with meshoptimizer's encoder (testkit/compressAvatar.ts) load with
 * the same vertices, skin and humanoid as the originals, and a damaged compressed buffer is refused
 * with a message naming the file and the compression. (Draco and KTX2 decode in workers from the
 * page's origin: they are checked in Chromium, tests/e2e/compressed-avatars.test.ts.)
 */
import { expect, it } from 'vitest';
import * as THREE from 'three';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { meshoptCompress } from '../../../testkit/compressAvatar';
import { withoutTextures } from '../../../testkit/avatarPlayback';
import { loadAvatar, type LoadedAvatar } from '../../../renderer/avatar/loadAvatar';
import { compressionsUsed } from '../../../renderer/avatar/decoders';
import { parseGlb, packGlb } from '../../../shared/gltf/glb';

/** Every mesh's vertex positions (bind pose, as stored), in scene order. */
function positions(a: LoadedAvatar): Float32Array[] {
  const out: Float32Array[] = [];
  a.vrm.scene.traverse((o) => {
    const g = (o as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
    if ((o as THREE.Mesh).isMesh && g) {
      const p = g.getAttribute('position');
      const f = new Float32Array(p.count * 3);
      for (let i = 0; i < p.count; i++) f.set([p.getX(i), p.getY(i), p.getZ(i)], i * 3);
      out.push(f);
    }
  });
  return out;
}

function indexCount(a: LoadedAvatar): number {
  let n = 0;
  a.vrm.scene.traverse((o) => {
    const g = (o as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
    if ((o as THREE.Mesh).isMesh && g?.index) n += g.index.count;
  });
  return n;
}

describeFixtures('compressed avatars: meshopt (EXT_meshopt_compression) through the avatar loader', () => {
  for (const [folder, file] of [['vrm0', 'cryptovoxels.vrm'], ['vrm1', 'debug_robot.vrm']] as const) {
    it(`${folder}/${file}: same vertices, indices, bones and hips as the uncompressed file`, async () => {
      const plain = withoutTextures(readFixture(folder, file));
      const packed = await meshoptCompress(plain);
      expect(compressionsUsed(parseGlb(packed.bytes).json)).toEqual(['meshopt']);
      expect(packed.views).toBeGreaterThanOrEqual(4);
      // The codec really shrank the geometry (it is not a pass-through).
      expect(packed.encodedBytes).toBeLessThan(packed.rawBytes * 0.8);
      const a = await loadAvatar(plain, file);
      const b = await loadAvatar(packed.bytes, `${file}.meshopt.vrm`);
      const pa = positions(a);
      const pb = positions(b);
      expect(pb.length).toBe(pa.length);
      // meshopt's codec without filters is lossless: the same floats, bit for bit.
      for (let i = 0; i < pa.length; i++) expect(Array.from(pb[i])).toEqual(Array.from(pa[i]));
      expect(indexCount(b)).toBe(indexCount(a));
      expect(b.metaVersion).toBe(a.metaVersion);
      const hips = (x: LoadedAvatar) => x.vrm.humanoid.getRawBoneNode('hips')!.getWorldPosition(new THREE.Vector3()).toArray();
      expect(hips(b)).toEqual(hips(a));
      expect(Object.keys(b.vrm.humanoid.humanBones).sort()).toEqual(Object.keys(a.vrm.humanoid.humanBones).sort());
    });
  }

  it('a damaged meshopt buffer is refused naming the file and the compression', async () => {
    const packed = await meshoptCompress(withoutTextures(readFixture('vrm0', 'cryptovoxels.vrm')));
    const { json, bin } = parseGlb(packed.bytes) as { json: Record<string, any>; bin: Uint8Array };
    const broken = bin.slice();
    // The first encoded view's header byte (0xa0 for vertex data, 0xe1 for triangles) is overwritten.
    const ext = json.bufferViews.find((v: Record<string, any>) => v.extensions?.EXT_meshopt_compression).extensions.EXT_meshopt_compression;
    broken[ext.byteOffset] = 0x00;
    await expect(loadAvatar(packGlb(json, broken), 'broken.meshopt.vrm')).rejects.toThrow(
      /^broken\.meshopt\.vrm: This glTF file cannot be read \(the meshopt-compressed geometry \(EXT_meshopt_compression\) could not be decoded: .+\)$/,
    );
  });

  it('Draco or KTX2 outside a page: the message names the compression, not a three.js internal', async () => {
    const { json, bin } = parseGlb(withoutTextures(readFixture('vrm0', 'cryptovoxels.vrm'))) as { json: Record<string, any>; bin: Uint8Array };
    json.extensionsUsed = [...json.extensionsUsed, 'KHR_draco_mesh_compression'];
    await expect(loadAvatar(packGlb(json, bin), 'draco.vrm')).rejects.toThrow(
      /^draco\.vrm: This glTF file cannot be read \(the Draco-compressed mesh \(KHR_draco_mesh_compression\) could not be decoded: compressed avatars are decoded only in the studio page/,
    );
  });
});
