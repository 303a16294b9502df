/**
 * A gaze written as the translation of a target (pre-release VRMA, and Blender's VRM add-on today) is
 * read as the 1.0 rotation that looks from the EYES at the target: the head plus the file's
 * lookAt.offsetFromHeadBone (issue 25; without it debug_robot's 4.6 cm offset turned the gaze by 2.25°
 * in Blender's export, tests/unit/interop/blenderExport.test.ts). Checked on test.vrma's rig: the
 * rotation turns +Z to the direction from head+offset to each target within 1e-5.
 */
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { rotateVec } from '../../../shared/math/quat';
import { worldMatrices } from '../../../shared/vrma/restPose';

describeFixtures('gaze targets start at the eyes', () => {
  it('offsetFromHeadBone moves the start of a translated gaze; without one it is the head', () => {
    const base = readVrma(readFixture('vrma', 'test.vrma'));
    const points = [0, 1.5, 2, 1, 1.6, 1, -0.5, 1.2, 0.8];
    const times = Float32Array.of(0, 1, 2);
    const channels = base.channels.map((c) => (c.node === base.lookAtNode ? { node: c.node, path: 'translation' as const, times, values: Float32Array.from(points) } : c));
    const head = worldMatrices(base.gltf.nodes as never)[base.humanoid.boneToNode.head!];
    for (const offset of [[0.03, 0.0354, 0], undefined]) {
      const ext = (base.gltf.extensions as Record<string, any>).VRMC_vrm_animation;
      const gltf = { ...base.gltf, extensions: { ...(base.gltf.extensions as object), VRMC_vrm_animation: { ...ext, lookAt: { ...ext.lookAt, ...(offset ? { offsetFromHeadBone: offset } : {}) } } } };
      const motion = readVrma(writeVrma({ ...base, gltf, channels }));
      const c = motion.channels.find((ch) => ch.node === motion.lookAtNode && ch.path === 'rotation')!;
      const eye = [head[12] + (offset?.[0] ?? 0), head[13] + (offset?.[1] ?? 0), head[14] + (offset?.[2] ?? 0)];
      for (let k = 0; k < 3; k++) {
        const d = rotateVec([c.values[k * 4], c.values[k * 4 + 1], c.values[k * 4 + 2], c.values[k * 4 + 3]], [0, 0, 1]);
        const want = [points[k * 3] - eye[0], points[k * 3 + 1] - eye[1], points[k * 3 + 2] - eye[2]];
        const len = Math.hypot(...want);
        for (let i = 0; i < 3; i++) expect(d[i], `key ${k}, offset ${offset ? 'given' : 'none'}`).toBeCloseTo(want[i] / len, 5);
      }
    }
  });
});
