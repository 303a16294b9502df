import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import type { VRMHumanBoneName } from '@pixiv/three-vrm';
import { createVRMAnimationClip, VRMLookAtQuaternionProxy } from '@pixiv/three-vrm-animation';
import { makeIdleMotion, makeWalkCycle } from '../../../shared/assets/walkCycle';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { SOLE_POINTS } from '../../../shared/assets/mannequinBody';
import { MotionError } from '../../../shared/errors';
import { angleBetween, rotateVec } from '../../../shared/math/quat';
import { boneChannel, durationOf, type Motion, type Quat, type Vec3 } from '../../../shared/motion/types';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { createPoseEvaluator, type SkeletonPose } from '../../../shared/vrma/fk';
import { standardWorldPositions } from '../../../shared/vrm/standardSkeleton';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { loadVrm } from './loadVrm';

const walk = makeWalkCycle();
const idle = makeIdleMotion();

function keyQuat(values: Float32Array, i: number): Quat {
  return [values[i * 4], values[i * 4 + 1], values[i * 4 + 2], values[i * 4 + 3]];
}

function solePoint(pose: SkeletonPose, side: 'left' | 'right', bone: 'Foot' | 'Toes', point: Vec3): Vec3 {
  const b = pose[`${side}${bone}`]!;
  const o = rotateVec(b.rotation, point);
  return [b.position[0] + o[0], b.position[1] + o[1], b.position[2] + o[2]];
}

function lowestSole(pose: SkeletonPose, side: 'left' | 'right'): number {
  return Math.min(...SOLE_POINTS.map(({ bone, point }) => solePoint(pose, side, bone, point)[1]));
}

/** Samples the motion between and on keys: 400 evenly spaced times over the loop. */
function sampleTimes(motion: Motion, n = 400): number[] {
  const d = durationOf(motion);
  return Array.from({ length: n + 1 }, (_, i) => (i * d) / n);
}

describe.each([
  { label: 'walk cycle', motion: walk, still: ['leftEye', 'rightEye', 'jaw'] },
  { label: 'idle', motion: idle, still: ['leftEye', 'rightEye', 'jaw', 'leftToes', 'rightToes'] },
])('generated $label', ({ motion, still }) => {
  it('loops: the last key of every track equals the first', () => {
    expect(durationOf(motion)).toBeGreaterThanOrEqual(2);
    for (const c of motion.channels) {
      const n = c.times.length;
      expect(c.times[0]).toBe(0);
      if (c.path === 'rotation') {
        expect(angleBetween(keyQuat(c.values, 0), keyQuat(c.values, n - 1))).toBeLessThan(1e-4);
      } else {
        for (let k = 0; k < 3; k++) expect(Math.abs(c.values[k] - c.values[(n - 1) * 3 + k])).toBeLessThan(1e-6);
      }
    }
  });

  it('animates every main bone and all fingers, with unit quaternions', () => {
    for (const bone of HUMAN_BONE_NAMES.filter((b) => !still.includes(b))) {
      const c = boneChannel(motion, bone, 'rotation');
      expect(c, bone).toBeDefined();
      for (let i = 0; i < c!.times.length; i++) {
        const q = keyQuat(c!.values, i);
        expect(Math.abs(Math.hypot(...q) - 1)).toBeLessThan(1e-6);
      }
    }
    expect(boneChannel(motion, 'hips', 'translation')).toBeDefined();
  });

  it('keeps the feet on, never in, the floor (FK on the standard skeleton, 1 cm tolerance)', () => {
    const fk = createPoseEvaluator(motion);
    // The sole points lie on the floor in the T-pose, so they stand for the mannequin's soles.
    const rest = standardWorldPositions();
    const heights = SOLE_POINTS.map(({ bone, point }) => rest[`left${bone}`][1] + point[1]);
    for (const h of heights) expect(h).toBeGreaterThan(-0.001);
    for (const h of heights) expect(h).toBeLessThan(0.02);
    expect(Math.min(...heights)).toBeLessThan(0.001);
    for (const t of sampleTimes(motion)) {
      const pose = fk(t);
      const left = lowestSole(pose, 'left');
      const right = lowestSole(pose, 'right');
      expect(Math.min(left, right), `t=${t}`).toBeGreaterThan(-0.01);
      // Some foot bears the weight at every moment: no floating.
      expect(Math.min(left, right), `t=${t}`).toBeLessThan(0.01);
    }
  });

  it('holds the arms down at the sides (hands below the shoulders)', () => {
    const fk = createPoseEvaluator(motion);
    for (const t of sampleTimes(motion, 100)) {
      const pose = fk(t);
      for (const side of ['left', 'right'] as const) {
        const hand = pose[`${side}Hand`]!.position;
        const shoulder = pose[`${side}UpperArm`]!.position;
        expect(shoulder[1] - hand[1], `${side} t=${t}`).toBeGreaterThan(0.4);
        // Close to the body, on its own side.
        expect(hand[0] * (side === 'left' ? 1 : -1), `${side} t=${t}`).toBeGreaterThan(0.12);
        expect(hand[0] * (side === 'left' ? 1 : -1), `${side} t=${t}`).toBeLessThan(0.35);
      }
    }
  });

  it('writes a valid .vrma that three-vrm-animation loads with every track', async () => {
    const bytes = writeVrma(motion);
    const report = await validateVrmaBytes(bytes);
    expect(report.messages).toEqual([]);
    expect(report.errors).toBe(0);
    const animation = await loadVrmAnimation(bytes);
    expect(animation.duration).toBeCloseTo(durationOf(motion), 5);
    expect(animation.humanoidTracks.rotation.size).toBe(motion.channels.filter((c) => c.path === 'rotation').length);
    expect(animation.humanoidTracks.translation.has('hips')).toBe(true);
    const back = readVrma(bytes);
    expect(back.channels.length).toBe(motion.channels.length);
  });
});

describe('walk cycle gait', () => {
  const fk = createPoseEvaluator(walk);
  const times = sampleTimes(walk);
  const poses = times.map((t) => fk(t));

  it('lasts two strides of 1.1 s at 30 keys per second by default, and honours options', () => {
    expect(durationOf(walk)).toBeCloseTo(2.2, 6);
    expect(boneChannel(walk, 'hips', 'rotation')!.times.length).toBe(67);
    const long = makeWalkCycle({ duration: 4.4, fps: 24 });
    expect(durationOf(long)).toBeCloseTo(4.4, 6);
    expect(boneChannel(long, 'hips', 'rotation')!.times.length).toBe(Math.round(4.4 * 24) + 1);
  });

  it('rejects unusable options with a MotionError', () => {
    for (const opts of [{ duration: 0 }, { duration: -1 }, { duration: NaN }, { duration: 1e9 }, { fps: 0 }, { fps: Infinity }]) {
      expect(() => makeWalkCycle(opts)).toThrow(MotionError);
    }
  });

  it('bends the knees forward only, most in swing', () => {
    for (const side of ['left', 'right'] as const) {
      const c = boneChannel(walk, `${side}LowerLeg`, 'rotation')!;
      let maxAngle = 0;
      let maxKey = 0;
      for (let i = 0; i < c.times.length; i++) {
        const [x, y, z, w] = keyQuat(c.values, i);
        // A knee is a hinge about +X (shin swinging back); it never hyperextends.
        expect(x * Math.sign(w), `${side} key ${i}`).toBeGreaterThan(0);
        expect(Math.hypot(y, z)).toBeLessThan(1e-6);
        const angle = 2 * Math.acos(Math.min(1, Math.abs(w)));
        if (angle > maxAngle) [maxAngle, maxKey] = [angle, i];
      }
      expect(maxAngle * 180 / Math.PI).toBeGreaterThan(50);
      expect(maxAngle * 180 / Math.PI).toBeLessThan(70);
      // At peak knee flexion the foot is in the air.
      expect(lowestSole(fk(c.times[maxKey]), side)).toBeGreaterThan(0.03);
    }
  });

  it('swings the thighs forward and back and the arms against the legs', () => {
    const hipZ = (p: SkeletonPose, side: 'left' | 'right') => p[`${side}Foot`]!.position[2] - p.hips!.position[2];
    const handZ = (p: SkeletonPose, side: 'left' | 'right') => p[`${side}Hand`]!.position[2] - p.hips!.position[2];
    for (const side of ['left', 'right'] as const) {
      const feet = poses.map((p) => hipZ(p, side));
      // The foot goes from well in front of the hips to well behind them.
      expect(Math.max(...feet)).toBeGreaterThan(0.2);
      expect(Math.min(...feet)).toBeLessThan(-0.2);
      const hands = poses.map((p) => handZ(p, side));
      expect(Math.max(...hands) - Math.min(...hands)).toBeGreaterThan(0.15);
      // Counter-swing: each hand moves opposite its own foot.
      const mf = feet.reduce((a, b) => a + b) / feet.length;
      const mh = hands.reduce((a, b) => a + b) / hands.length;
      let cov = 0, vf = 0, vh = 0;
      feet.forEach((f, i) => {
        cov += (f - mf) * (hands[i] - mh);
        vf += (f - mf) ** 2;
        vh += (hands[i] - mh) ** 2;
      });
      expect(cov / Math.sqrt(vf * vh)).toBeLessThan(-0.8);
    }
  });

  it('bobs and sways the pelvis a little, walking in place', () => {
    const hips = poses.map((p) => p.hips!.position);
    const ys = hips.map((p) => p[1]);
    const xs = hips.map((p) => p[0]);
    const bob = Math.max(...ys) - Math.min(...ys);
    expect(bob).toBeGreaterThan(0.01);
    expect(bob).toBeLessThan(0.05);
    expect(Math.max(...ys)).toBeLessThan(0.95);
    const sway = Math.max(...xs) - Math.min(...xs);
    expect(sway).toBeGreaterThan(0.02);
    expect(sway).toBeLessThan(0.08);
    for (const p of hips) expect(Math.abs(p[2])).toBeLessThan(1e-6);
  });

  it('rolls the stance foot heel to toe: toes up at heel strike, heel up at push-off', () => {
    const pitch = (p: SkeletonPose, side: 'left' | 'right') => {
      // Foot direction from heel point to ball point, angle above the floor in degrees.
      const heel = solePoint(p, side, 'Foot', SOLE_POINTS[0].point);
      const ball = solePoint(p, side, 'Toes', SOLE_POINTS[2].point);
      return (Math.atan2(ball[1] - heel[1], ball[2] - heel[2]) * 180) / Math.PI;
    };
    const pitches = poses.map((p) => pitch(p, 'left'));
    expect(Math.max(...pitches)).toBeGreaterThan(10);
    expect(Math.min(...pitches)).toBeLessThan(-20);
  });
});

describe('walk cycle on the generated mannequin through three-vrm-animation', () => {
  it.each([
    { label: 'VRM 1.0', version: '1.0' as const, restRotations: false },
    { label: 'VRM 1.0 with rest rotations', version: '1.0' as const, restRotations: true },
    { label: 'VRM 0.x', version: '0.x' as const, restRotations: false },
  ])("moves the avatar's bones where our FK puts them ($label)", async ({ version, restRotations }) => {
    const vrm = await loadVrm(makeMannequinVrm({ version, restRotations }));
    const animation = await loadVrmAnimation(writeVrma(walk));
    // As an app does: a lookAt proxy on the scene so the clip can address the gaze.
    const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt!);
    proxy.name = 'VRMLookAtQuaternionProxy';
    vrm.scene.add(proxy);
    const mixer = new THREE.AnimationMixer(vrm.scene);
    mixer.clipAction(createVRMAnimationClip(animation, vrm)).play();
    const fk = createPoseEvaluator(walk);
    const flip = version === '0.x' ? -1 : 1;
    const bones: HumanBoneName[] = ['hips', 'head', 'leftHand', 'rightHand', 'leftFoot', 'rightToes', 'leftIndexDistal'];
    for (const t of [0, 0.31, 0.77, 1.5, 2.05]) {
      mixer.setTime(t);
      vrm.update(0);
      vrm.scene.updateMatrixWorld(true);
      const ours = fk(t);
      for (const bone of bones) {
        const p = vrm.humanoid.getRawBoneNode(bone as VRMHumanBoneName)!.getWorldPosition(new THREE.Vector3());
        const q = ours[bone]!.position;
        expect(p.distanceTo(new THREE.Vector3(q[0] * flip, q[1], q[2] * flip)), `${bone} t=${t}`).toBeLessThan(1e-4);
      }
    }
  });
});
