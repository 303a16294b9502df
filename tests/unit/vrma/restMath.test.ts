import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { fromNormalized, toNormalized, hipsTranslationScale } from '../../../shared/vrma/restPose';
import { transformPoint } from '../../../shared/math/mat4';
import { normalizedPoseAt } from '../../../shared/vrma/fk';
import { durationOf } from '../../../shared/motion/types';
import * as THREE from 'three';
import { describe } from 'vitest';
import { RawGlb, skeletonJson, channel, NODE } from '../../../testkit/rawVrma';
import { loadVrmAnimation, normalizedRotationTracks, hipsTranslationTrack } from '../../../testkit/threeVrmAnimation';
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

  for (const file of files) {
    it(`${basename(file)}: normalizedPoseAt between keys equals three-vrm-animation's track interpolated by three.js`, async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const motion = readVrma(bytes);
      const animation = await loadVrmAnimation(bytes);
      const duration = durationOf(motion);
      let compared = 0;
      for (const f of [0, 0.11, 0.37, 0.5, 0.73, 0.96, 1]) {
        const t = duration * f;
        const pose = normalizedPoseAt(motion, t);
        for (const [bone, track] of animation.humanoidTracks.rotation) {
          const q = new THREE.QuaternionLinearInterpolant(track.times, track.values, 4, new Float32Array(4)).evaluate(t);
          const ours = pose.rotations[bone as keyof typeof pose.rotations]!;
          const dot = Math.abs(ours[0] * q[0] + ours[1] * q[1] + ours[2] * q[2] + ours[3] * q[3]) / (Math.hypot(...ours) * Math.hypot(...q));
          expect(dot).toBeGreaterThanOrEqual(MIN_ABS_DOT);
          compared++;
        }
        const hips = animation.humanoidTracks.translation.get('hips');
        if (hips) {
          const p = new THREE.LinearInterpolant(hips.times, hips.values, 3, new Float32Array(3)).evaluate(t);
          for (let c = 0; c < 3; c++) expect(Math.abs(pose.hipsPosition![c] - p[c])).toBeLessThan(1e-5 * Math.max(1, Math.abs(p[c])));
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});

describe('rest math on generated rigs with rotated, scaled and mirrored rests', () => {
  it('matches three-vrm-animation for rest rotations, a 0.01 root and a mirrored (-1 x scale) root', async () => {
    for (const variant of ['rotated', 'centimetre', 'mirrored'] as const) {
      const g = new RawGlb();
      const times = g.floats([0, 1, 2], 'SCALAR');
      const s = Math.SQRT1_2;
      const rots = g.floats([0, 0, 0, 1, 0.5, 0.5, 0.5, 0.5, 0, s, 0, s], 'VEC4');
      const json = skeletonJson(
        [{ channels: [channel(0, NODE.spine, 'rotation'), channel(0, NODE.head, 'rotation'), channel(0, NODE.hips, 'rotation')], samplers: [{ input: times, output: rots }] }],
        { rootScale: variant === 'centimetre' ? 0.01 : 1 },
      );
      const nodes = json.nodes as Record<string, unknown>[];
      nodes[NODE.spine].rotation = [0.2, 0.3, -0.1, Math.sqrt(1 - 0.04 - 0.09 - 0.01)];
      nodes[NODE.hips].rotation = [s, 0, 0, s];
      if (variant === 'mirrored') nodes[NODE.root].scale = [-1, 1, 1];
      const bytes = g.build(json);
      const motion = readVrma(bytes);
      const reference = normalizedRotationTracks(await loadVrmAnimation(bytes));
      expect(reference.size).toBe(3);
      for (const c of motion.channels) {
        const bone = motion.humanoid.nodeToBone.get(c.node)!;
        const ref = reference.get(bone)!;
        for (let k = 0; k < 3; k++) {
          const n = toNormalized([c.values[k * 4], c.values[k * 4 + 1], c.values[k * 4 + 2], c.values[k * 4 + 3]], motion.rest.bones[bone]!);
          const r = ref.values.subarray(k * 4, k * 4 + 4);
          expect(Math.abs(n[0] * r[0] + n[1] * r[1] + n[2] * r[2] + n[3] * r[3]), `${variant} ${bone} key ${k}`).toBeGreaterThanOrEqual(MIN_ABS_DOT);
        }
      }
    }
  });
});
