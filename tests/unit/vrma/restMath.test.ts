import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles } from '../../helpers/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { fromNormalized, toNormalized, hipsTranslationScale } from '../../../shared/vrma/restPose';
import { transformPoint } from '../../../shared/math/mat4';
import { loadVrmAnimation, normalizedRotationTracks, hipsTranslationTrack } from '../../helpers/threeVrmAnimation';
import type { Quat } from '../../../shared/motion/types';

const files = fixtureFiles('vrma', '.vrma');
/** |dot| of unit quaternions this close to 1 means the same rotation to about 0.16 degrees... */
const MIN_ABS_DOT = 0.999999;

describeFixtures('rest math against @pixiv/three-vrm-animation', () => {
  for (const file of files) {
    const name = basename(file);
    it(`${name}: P·q·W⁻¹ equals three-vrm-animation's normalized track for every bone and key`, async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const motion = readVrma(bytes);
      const reference = normalizedRotationTracks(await loadVrmAnimation(bytes));
      let compared = 0;
      let worst = 1;
      for (const c of motion.channels) {
        const bone = motion.humanoid.nodeToBone.get(c.node);
        if (!bone || c.path !== 'rotation') continue;
        const ref = reference.get(bone);
        expect(ref, `three-vrm-animation track for ${bone}`).toBeDefined();
        expect(ref!.times).toEqual(c.times);
        const rest = motion.rest.bones[bone]!;
        for (let k = 0; k < c.times.length; k++) {
          const q: Quat = [c.values[k * 4], c.values[k * 4 + 1], c.values[k * 4 + 2], c.values[k * 4 + 3]];
          const n = toNormalized(q, rest);
          const r = ref!.values.subarray(k * 4, k * 4 + 4);
          // Files may hold slightly non-unit quaternions (test.vrma: |q| = 0.99999): compare directions.
          const dot = Math.abs(n[0] * r[0] + n[1] * r[1] + n[2] * r[2] + n[3] * r[3]) / (Math.hypot(...n) * Math.hypot(...r));
          worst = Math.min(worst, dot);
          // And the inverse brings the file rotation back.
          const back = fromNormalized(n, rest);
          const dotBack = Math.abs(back[0] * q[0] + back[1] * q[1] + back[2] * q[2] + back[3] * q[3]) / (q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2);
          expect(dotBack).toBeGreaterThanOrEqual(MIN_ABS_DOT);
          compared++;
        }
      }
      expect(worst).toBeGreaterThanOrEqual(MIN_ABS_DOT);
      expect(compared).toBe(reference.size === 0 ? 0 : [...reference.values()].reduce((s, t) => s + t.times.length, 0));
      expect(compared).toBeGreaterThan(0);
    });

    it(`${name}: hips translation and rest hips height match three-vrm-animation, never NaN`, async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const motion = readVrma(bytes);
      const animation = await loadVrmAnimation(bytes);
      // Within float32 rounding of the world transform (1e-5 relative).
      expect(motion.rest.hipsHeight).toBeCloseTo(animation.restHipsPosition.y, 5);
      expect(Number.isFinite(hipsTranslationScale(motion.rest, 0.9))).toBe(true);
      expect(hipsTranslationScale(motion.rest, 0.9)).toBeGreaterThan(0);
      const ref = hipsTranslationTrack(animation);
      const hipsNode = motion.humanoid.boneToNode.hips;
      const ours = motion.channels.find((c) => c.node === hipsNode && c.path === 'translation');
      expect(ours === undefined).toBe(ref === undefined);
      if (!ours || !ref) return;
      for (let k = 0; k < ours.times.length; k++) {
        const p = transformPoint(motion.rest.hipsParentWorld, [ours.values[k * 3], ours.values[k * 3 + 1], ours.values[k * 3 + 2]]);
        for (let c = 0; c < 3; c++) expect(Math.abs(p[c] - ref.values[k * 3 + c])).toBeLessThan(1e-5 * Math.max(1, Math.abs(ref.values[k * 3 + c])));
      }
      for (const b of Object.values(motion.rest.bones)) {
        for (const v of [...b!.parentWorld, ...b!.world, ...b!.worldPosition]) expect(Number.isFinite(v)).toBe(true);
      }
    });
  }
});
