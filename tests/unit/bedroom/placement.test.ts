import { beforeAll, describe, expect, it } from 'vitest';
import { readFixture, describeFixtures } from '../../../testkit/fixtures';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import type { Vec3 } from '../../../shared/motion/types';
import { BODY_THICKNESS, computePlacement, measurePose, placeJoint, toBedFrame, type BedLayout } from '../../../renderer/bedroom/placement';
import type { LyingPose } from '../../../shared/contract/bedroomSettings';
import { VIEWS } from '../../../renderer/bedroom/cameraRig';
import { bedroomScene, type TestScene } from './nodeScene';

const POSES: readonly LyingPose[] = ['back', 'right', 'left'];

/** Let the rig settle fully asleep in one pose and return its joints in the bed's frame. */
function lyingJoints(s: TestScene, pose: LyingPose): Record<string, Vec3> {
  // Breathing moves the chest with time; the placement is compared without it (the settling stays on).
  s.rig.additiveEnabled = false;
  for (let i = 0; i < 3; i++) s.rig.update(1 / 60, { e: 1, lb: pose === 'back' ? 0 : 1, side: pose === 'left' ? 'left' : 'right' });
  s.rig.additiveEnabled = true;
  const out: Record<string, Vec3> = {};
  for (const [name, p] of Object.entries(s.rig.jointsInParentFrame())) out[name] = toBedFrame(p!, s.room.bed);
  return out;
}

function checkOnBed(s: TestScene, pose: LyingPose, robotSide = false) {
  const bed = s.room.bed;
  const j = lyingJoints(s, pose);
  const names = Object.keys(j);
  expect(names.length).toBeGreaterThanOrEqual(20);
  // The skin's lowest point rests on what is under it (bodyRest.ts), within 1 cm (every vertex measured).
  const c = s.rig.rest.contacts('all');
  const lowest = Math.min(...Object.values(c).filter((p) => p.points).map((p) => p.gap));
  expect(Math.abs(lowest)).toBeLessThanOrEqual(0.01);
  // Head within the pillow's area.
  // The head's skin (its middle) within the pillow's area.
  const pillow = toBedFrame(bed.pillowCenter, bed);
  const head = j.head;
  const skin = toBedFrame(s.rig.rest.surface.partCentre('head')!, bed);
  // (Unless the head is bigger than the pillow: sphere.vrm's head is an 85 cm ball.)
  const headBox = s.rig.rest.surface.partBox('head');
  const headSize = Math.hypot(headBox[7][0] - headBox[0][0], headBox[7][2] - headBox[0][2]);
  if (headSize < bed.pillowWidth) {
    expect(Math.abs(skin[0] - pillow[0])).toBeLessThanOrEqual(bed.pillowLength / 2);
    expect(Math.abs(skin[2] - pillow[2])).toBeLessThanOrEqual(bed.pillowWidth / 2);
  }
  // A body longer than the mattress with its head on the pillow (the 2.1 m robot) has its feet past the foot end.
  const length = Math.max(...headBox.map((p) => toBedFrame(p, bed)[0])) - Math.min(...names.map((n) => j[n][0]));
  const overhang = Math.max(0, length - bed.length);
  // Body within the bed's width (and length).
  for (const n of names) {
    expect(Math.abs(j[n][2]), `${n} across`).toBeLessThanOrEqual(bed.width / 2);
    expect(Math.abs(j[n][0]), `${n} along`).toBeLessThanOrEqual(bed.length / 2 + overhang);
    // (The rigid robot on its side holds its upper leg up: tests/unit/bedroom/contact.test.ts prints how far.)
    if (!robotSide) expect(j[n][1], `${n} height`).toBeLessThan(0.8);
  }
  // The head end is at the pillow: the head is the joint nearest the head of the bed... (feet far from it).
  const feetAlong = Math.max(j.leftFoot[0], j.rightFoot[0]);
  expect(head[0]).toBeGreaterThan(feetAlong + 0.4);
  const across = names.map((n) => j[n][2]);
  console.info(
    `[bedroom] ${pose}: lowest point of the skin ${(lowest * 1000).toFixed(1)} mm above what is under it, head ${((head[0] - pillow[0]) * 100).toFixed(1)} cm along / ${
      ((head[2] - pillow[2]) * 100).toFixed(1)
    } cm across from the pillow centre, body across [${Math.min(...across).toFixed(2)}, ${Math.max(...across).toFixed(2)}] m of ±${(bed.width / 2).toFixed(2)}`,
  );
  return j;
}

function maxDiff(a: Record<string, Vec3>, b: Record<string, Vec3>): number {
  let d = 0;
  for (const n of Object.keys(a)) d = Math.max(d, Math.hypot(a[n][0] - b[n][0], a[n][1] - b[n][1], a[n][2] - b[n][2]));
  return d;
}

const AVATARS: readonly [string, () => Uint8Array][] = [
  ['generated mannequin (VRM 1.0)', () => makeMannequinVrm()],
];
const FIXTURE_AVATARS: readonly [string, () => Uint8Array][] = [
  ['vrm1/debug_robot.vrm', () => readFixture('vrm1', 'debug_robot.vrm')],
  ['vrm0/sphere.vrm', () => readFixture('vrm0', 'sphere.vrm')],
  ['vrm0/cryptovoxels.vrm', () => readFixture('vrm0', 'cryptovoxels.vrm')],
];

function placementSuite(name: string, bytes: () => Uint8Array) {
  let scene: TestScene;
  beforeAll(async () => {
    scene = await bedroomScene(bytes());
  });
  for (const pose of POSES) {
    it(`${name}: ${pose} pose lies on the mattress, head on the pillow, within the bed`, () => {
      checkOnBed(scene, pose, name.includes('debug_robot') && pose !== 'back');
    });
  }
  it(`${name}: standing awake, it faces into the room (toward the default view, within 30°)`, () => {
    for (let i = 0; i < 5; i++) scene.rig.update(1 / 30, { e: 0, lb: 0 });
    const j = scene.rig.jointsInParentFrame();
    const left = [j.leftUpperLeg![0] - j.rightUpperLeg![0], 0, j.leftUpperLeg![2] - j.rightUpperLeg![2]];
    // Facing = left x up (VRM: +X left, +Y up, +Z forward).
    const face = [-left[2], 0, left[0]];
    const eye = VIEWS.reset.position;
    const to = [eye[0] - j.hips![0], 0, eye[2] - j.hips![2]];
    const cos = (face[0] * to[0] + face[2] * to[2]) / (Math.hypot(face[0], face[2]) * Math.hypot(to[0], to[2]));
    console.info(`[bedroom] ${name}: standing, it faces ${((Math.acos(Math.min(1, cos)) * 180) / Math.PI).toFixed(1)}° from the default view`);
    expect(cos).toBeGreaterThan(Math.cos((30 * Math.PI) / 180));
  });
  it(`${name}: moving and rotating the room root leaves the placement relative to the bed unchanged`, async () => {
    const before = { back: lyingJoints(scene, 'back'), right: lyingJoints(scene, 'right'), left: lyingJoints(scene, 'left') };
    // The room moved after the poses were measured (as when VR recentres)...
    scene.room.root.position.set(1.7, 0.35, -2.4);
    scene.room.root.rotation.set(0.2, 1.1, -0.15);
    // ...and a scene whose room was moved before measuring.
    const moved = await bedroomScene(bytes(), {
      arrangeRoom: (room) => {
        room.root.position.set(-3.1, 1.2, 0.8);
        room.root.rotation.set(-0.3, -2.2, 0.1);
      },
    });
    let worst = 0;
    for (const pose of POSES) {
      const after = maxDiff(lyingJoints(scene, pose), before[pose]);
      const remeasured = maxDiff(lyingJoints(moved, pose), before[pose]);
      expect(after).toBeLessThan(0.001);
      expect(remeasured).toBeLessThan(0.001);
      worst = Math.max(worst, after, remeasured);
    }
    console.info(`[bedroom] ${name}: placement relative to the bed with the room moved and turned differs by at most ${worst.toExponential(1)} m`);
    scene.room.root.position.set(0, 0, 0);
    scene.room.root.rotation.set(0, 0, 0);
  });
}

describe('automatic placement on the bed', () => {
  for (const [name, bytes] of AVATARS) placementSuite(name, bytes);
});

describeFixtures('automatic placement on the bed (fixture avatars)', () => {
  for (const [name, bytes] of FIXTURE_AVATARS) placementSuite(name, bytes);
});

describe('placement math', () => {
  const bed: BedLayout = {
    mattressCenter: [2, 0.6, -1],
    mattressTop: 0.6,
    headDir: [Math.SQRT1_2, 0, Math.SQRT1_2],
    wallDir: [Math.SQRT1_2, 0, -Math.SQRT1_2],
    length: 2,
    width: 1.4,
    pillowCenter: [2 + 0.7 * Math.SQRT1_2, 0.68, -1 + 0.7 * Math.SQRT1_2],
    pillowLength: 0.4,
    pillowWidth: 0.6,
  };
  // A stick body lying with its head toward +X at the origin (hips at 0.95 as the tilt leaves it).
  const joints = {
    hips: [0, 0.95, 0] as Vec3,
    head: [0.55, 0.95, 0] as Vec3,
    leftFoot: [-0.85, 0.93, 0.1] as Vec3,
    rightFoot: [-0.85, 0.9, -0.1] as Vec3,
  };
  it('heads the body at the pillow, rests the lowest joint, centres across', () => {
    const m = measurePose(joints);
    expect(m.heading[0]).toBeCloseTo(1, 12);
    const p = computePlacement(m, bed);
    const placed = Object.fromEntries(Object.entries(joints).map(([k, v]) => [k, toBedFrame(placeJoint(v, p), bed)]));
    expect(placed.head[0]).toBeCloseTo(0.7, 9);
    expect(placed.head[2]).toBeCloseTo(0, 9);
    expect(placed.rightFoot[1]).toBeCloseTo(BODY_THICKNESS, 9);
    expect(placed.leftFoot[2] + placed.rightFoot[2]).toBeCloseTo(0, 9);
  });
  it('slider offsets add to the automatic result', () => {
    const m = measurePose(joints);
    const base = computePlacement(m, bed);
    const turned = computePlacement(m, bed, { towardHead: 0, towardWall: 0, up: 0, turn: 30 });
    const off = computePlacement(m, bed, { towardHead: 0.1, towardWall: 0.2, up: -0.05, turn: 30 });
    // In the bed's directions: 10 cm toward the head, 20 cm toward the wall, 5 cm down.
    const d = [off.position[0] - turned.position[0], off.position[1] - turned.position[1], off.position[2] - turned.position[2]];
    expect(d[0] * bed.headDir[0] + d[2] * bed.headDir[2]).toBeCloseTo(0.1, 12);
    expect(d[0] * bed.wallDir[0] + d[2] * bed.wallDir[2]).toBeCloseTo(0.2, 12);
    expect(d[1]).toBeCloseTo(-0.05, 12);
    expect(turned.yaw - base.yaw).toBeCloseTo(Math.PI / 6, 12);
    // The yaw offset re-centres on the bed: the lowest joint stays on the mattress (+ y offset).
    const low = Math.min(...Object.values(joints).map((v) => toBedFrame(placeJoint(v, off), bed)[1]));
    expect(low).toBeCloseTo(BODY_THICKNESS - 0.05, 9);
  });
  it('an upright pose keeps its facing as heading', () => {
    expect(measurePose({ hips: [0, 1, 0], head: [0, 1.6, 0] }).heading).toEqual([0, 0, 1]);
  });
});
