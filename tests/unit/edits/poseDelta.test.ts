/**
 * applyPoseDelta checked through @pixiv/three-vrm-animation itself: the edited file is loaded, turned
 * into a clip for a real VRM 1.0 and a real VRM 0.x avatar, and the normalized rotation the avatar
 * receives at t must be D·(before). Also motionAmount.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM, type VRMHumanBoneName } from '@pixiv/three-vrm';
import { createVRMAnimationClip } from '@pixiv/three-vrm-animation';
import type { Motion, Quat, Vec3 } from '../../../shared/motion/types';
import { boneChannel } from '../../../shared/motion/types';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { motionAmount } from '../../../shared/edits/motionAmount';
import { smoothstep } from '../../../shared/edits/splice';
import { writeVrma } from '../../../shared/vrma/write';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { fromAxisAngle, mul, slerp, IDENTITY } from '../../../shared/math/quat';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { MotionError } from '../../../shared/errors';
import { fixturePath, HAS_FIXTURES } from '../../../testkit/fixtures';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { fixtureMotion, wavyMotion, withRotatedRest } from './editTestKit';

// GLTFLoader reaches for `self` when it meets embedded textures; Node has none. Textures are not needed here.
(globalThis as { self?: unknown }).self ??= globalThis;

async function loadVrm(source: string | Uint8Array): Promise<VRM> {
  const bytes = typeof source === 'string' ? readFileSync(source) : source;
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const originalError = console.error;
  console.error = () => undefined; // "Couldn't load texture": expected without a DOM
  try {
    const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    return gltf.userData.vrm as VRM;
  } finally {
    console.error = originalError;
  }
}

interface AvatarView {
  rotation(bone: HumanBoneName, t: number): Quat;
  hips(t: number): Vec3;
}

/** What the avatar's normalized bones receive from the file at key time t, through three-vrm-animation. */
async function avatarView(motion: Motion, vrm: VRM): Promise<AvatarView> {
  const animation = await loadVrmAnimation(writeVrma(motion));
  const clip = createVRMAnimationClip(animation, vrm);
  // three.js's own interpolant, as the AnimationMixer evaluates the track.
  const valueAt = (name: string, t: number): number[] | undefined => {
    const track = clip.tracks.find((k) => k.name === name);
    // createInterpolant is on every KeyframeTrack at runtime (the mixer uses it) but missing from the typings.
    const interpolant = track as unknown as { createInterpolant(): { evaluate(t: number): ArrayLike<number> } } | undefined;
    return interpolant ? Array.from(interpolant.createInterpolant().evaluate(t)) : undefined;
  };
  return {
    rotation: (bone, t) => (valueAt(`${vrm.humanoid.getNormalizedBoneNode(bone as VRMHumanBoneName)!.name}.quaternion`, t) ?? [0, 0, 0, 1]) as unknown as Quat,
    hips: (t) => valueAt(`${vrm.humanoid.getNormalizedBoneNode('hips')!.name}.position`, t) as unknown as Vec3,
  };
}

function absDot(a: Quat, b: Quat): number {
  return Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / Math.hypot(...a) / Math.hypot(...b);
}

describe('applyPoseDelta through three-vrm-animation on VRM 1.0 and VRM 0.x avatars', () => {
  const avatars: Record<string, VRM> = {};
  const avatarNames = ['VRM 1.0 mannequin (rest rotations)', 'VRM 0.x mannequin', ...(HAS_FIXTURES ? ['VRM 1.0 debug_robot', 'VRM 0.x triangle'] : [])];
  beforeAll(async () => {
    avatars['VRM 1.0 mannequin (rest rotations)'] = await loadVrm(makeMannequinVrm({ restRotations: true }));
    avatars['VRM 0.x mannequin'] = await loadVrm(makeMannequinVrm({ version: '0.x' }));
    if (HAS_FIXTURES) {
      avatars['VRM 1.0 debug_robot'] = await loadVrm(fixturePath('vrm1', 'debug_robot.vrm'));
      avatars['VRM 0.x triangle'] = await loadVrm(fixturePath('vrm0', 'triangle.vrm'));
    }
  });

  const motions: [string, () => Motion][] = [
    ['generated, rotated rest (legs 180°)', () => withRotatedRest(wavyMotion({ duration: 3, fps: 10 }))],
    ...(HAS_FIXTURES ? ([['test.vrma (legs rest 180°)', () => fixtureMotion('test.vrma')]] as [string, () => Motion][]) : []),
  ];
  const D = fromAxisAngle([0.3, -0.5, 0.8], 0.7);
  const t = 1.25;
  const radius = 0.6;
  for (const [motionName, make] of motions) {
    for (const avatarName of avatarNames) {
      it(`${motionName} on ${avatarName}: rotation at t becomes D·before, neighbours by the smoothstep weight`, async () => {
        const vrm = avatars[avatarName];
        const vrm0 = vrm.meta.metaVersion === '0';
        expect(vrm0).toBe(avatarName.includes('0.x'));
        const source = make();
        for (const bone of ['rightUpperArm', 'leftUpperLeg', 'head'] as const) {
          const edited = applyPoseDelta(source, bone, D, t, radius, { vrm0Flip: vrm0 });
          expect(source.channels).not.toBe(edited.channels);
          const before = await avatarView(source, vrm);
          const after = await avatarView(edited, vrm);
          const channel = boneChannel(edited, bone, 'rotation')!;
          const keyTimes = Array.from(channel.times).filter((k) => Math.abs(k - t) < radius);
          for (const k of keyTimes) {
            const w = smoothstep(1 - Math.abs(k - t) / radius);
            const expected = mul(slerp(IDENTITY, D, w), before.rotation(bone, k));
            expect(absDot(after.rotation(bone, k), expected)).toBeGreaterThanOrEqual(0.9999);
          }
          expect(keyTimes.length).toBeGreaterThanOrEqual(3);
          // A key outside the radius is untouched.
          const outside = Array.from(channel.times).find((k) => Math.abs(k - t) > radius + 0.05)!;
          expect(absDot(after.rotation(bone, outside), before.rotation(bone, outside))).toBeGreaterThanOrEqual(0.999999);
        }
      });
    }
  }

  it('moves the hips by the normalized delta divided by the hips height scale (VRM 0.x flip included)', async () => {
    for (const avatarName of avatarNames) {
      const vrm = avatars[avatarName];
      const source = withRotatedRest(wavyMotion({ duration: 3, fps: 10 }));
      const delta: Vec3 = [0.1, -0.05, 0.2];
      const avatarHipsHeight = vrm.humanoid.normalizedRestPose.hips!.position![1];
      const edited = applyPoseDelta(source, 'hips', IDENTITY, 1.5, 0, { vrm0Flip: vrm.meta.metaVersion === '0', hipsDelta: delta, avatarHipsHeight });
      const before = await avatarView(source, vrm);
      const after = await avatarView(edited, vrm);
      const a = after.hips(1.5);
      const b = before.hips(1.5);
      for (let c = 0; c < 3; c++) expect(a[c] - b[c]).toBeCloseTo(delta[c], 4);
      const n = after.hips(1.4);
      const m = before.hips(1.4);
      for (let c = 0; c < 3; c++) expect(n[c]).toBeCloseTo(m[c], 5);
    }
  });
});

describe('applyPoseDelta on generated motions', () => {
  const source = withRotatedRest(wavyMotion({ duration: 2, fps: 30 }));

  it('never mutates its input and shares every other channel', () => {
    const copy = source.channels.map((c) => c.values.slice());
    const edited = applyPoseDelta(source, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.5), 1, 0.3);
    source.channels.forEach((c, i) => expect(c.values).toEqual(copy[i]));
    const arm = boneChannel(source, 'leftUpperArm', 'rotation');
    edited.channels.forEach((c, i) => (source.channels[i] === arm ? expect(c).not.toBe(arm) : expect(c).toBe(source.channels[i])));
  });

  it('radius 0 changes only the frame at t', () => {
    const edited = applyPoseDelta(source, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.5), 1, 0);
    const a = boneChannel(source, 'leftUpperArm', 'rotation')!;
    const b = boneChannel(edited, 'leftUpperArm', 'rotation')!;
    let changed = 0;
    for (let k = 0; k < a.times.length; k++) if (a.values[k * 4] !== b.values[k * 4] || a.values[k * 4 + 3] !== b.values[k * 4 + 3]) changed++;
    expect(changed).toBe(1);
  });

  it('refuses a time outside the motion, a negative radius, a zero rotation or an absent bone', () => {
    const q = fromAxisAngle([0, 0, 1], 0.5);
    expect(() => applyPoseDelta(source, 'head', q, 5, 0)).toThrow(MotionError);
    expect(() => applyPoseDelta(source, 'head', q, 1, -1)).toThrow(/negative/);
    expect(() => applyPoseDelta(source, 'head', [0, 0, 0, 0], 1, 0)).toThrow(/zero length/);
    const small = buildMotion({ rotations: { head: source.channels[0] }, bones: ['hips', 'spine', 'neck', 'head'] });
    expect(() => applyPoseDelta(small, 'leftHand', q, 1, 0)).toThrow(/no leftHand bone/);
  });
});

describe('motionAmount', () => {
  it('a still motion gives zeros; a constant spin gives its angle per 1/30 s', () => {
    const times = new Float32Array([0, 1, 2]);
    const still = buildMotion({ rotations: { head: { times, values: new Float32Array([0, 0, 0.6, 0.8, 0, 0, 0.6, 0.8, 0, 0, 0.6, 0.8]) } } });
    const amount = motionAmount(still);
    expect(amount.length).toBe(60);
    expect(Array.from(amount).every((v) => v === 0)).toBe(true);
    // 1 rad/s about y on one bone, 0.5 rad/s on another: 1.5/30 rad per step.
    const n = 61;
    const ts = new Float32Array(n);
    const a = new Float32Array(n * 4);
    const b = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      ts[i] = i / 30;
      a.set(fromAxisAngle([0, 1, 0], ts[i]), i * 4);
      b.set(fromAxisAngle([1, 0, 0], ts[i] * 0.5), i * 4);
    }
    const spin = withRotatedRest(buildMotion({ rotations: { head: { times: ts, values: a }, leftHand: { times: ts, values: b } } }));
    const moving = motionAmount(spin);
    expect(moving.length).toBe(60);
    for (const v of moving) expect(v).toBeCloseTo(1.5 / 30, 5);
  });
});
