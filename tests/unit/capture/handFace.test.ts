/**
 * Faces and hands of a capture, on landmarks made in the test: faces drawn with known lid gaps and
 * mouth shapes (blinks, winks, the five vowels) give their expressions through the morph table, and
 * hands of a walking body with fingers curling over time come back as the finger rotations they were
 * made from (bent 30° or more at the middle joint, where the solver reads the finger's plane). The
 * hands are drawn by a weak-perspective camera (each hand at one depth, as MediaPipe's image landmarks
 * scale z like x), so their directions are exact up to scale: tolerance 0.01°.
 */
import { describe, expect, it } from 'vitest';
import { calibrateFace, faceWeights, FACE_LANDMARK_COUNT, FACE_POINTS, measureFace } from '../../../shared/capture/faceSolver';
import { expressionForMorph } from '../../../shared/convert/humanoid/expressionNames';
import { captureMotion } from '../../../shared/capture/captureMotion';
import { handLandmarksOfPose, DIGITS } from '../../../shared/capture/handLandmarks';
import { landmarksOfPose } from '../../../shared/capture/landmarkRig';
import { POSE_LANDMARKS, type DetectedFrame } from '../../../shared/capture/landmarks';
import { standardFk } from '../../../shared/vrm/standardFk';
import { walkPoseAt } from '../../../shared/assets/walkCycle';
import { normalizedPoseAt } from '../../../shared/vrma/fk';
import { angleBetween, fromAxisAngle, mul } from '../../../shared/math/quat';
import { add3, scale3 } from '../../../shared/math/vec3';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';

const W = 640, H = 480;

/** A face in pixels: eyes 40 px wide, cheeks 200 px apart, the mouth 80 px wide when neutral. */
function face(o: { leftLid?: number; rightLid?: number; open?: number; widen?: number } = {}): number[] {
  const pts: Vec3[] = Array.from({ length: FACE_LANDMARK_COUNT }, () => [320, 200, 0]);
  const put = (i: number, x: number, y: number) => (pts[i] = [x, y, 0]);
  const { leftEye: L, rightEye: R, mouth: M, cheeks: C } = FACE_POINTS;
  // The subject's left shows on the image's right.
  put(L.inner, 340, 180);
  put(L.outer, 380, 180);
  put(L.upper, 360, 180 - (o.leftLid ?? 12) / 2);
  put(L.lower, 360, 180 + (o.leftLid ?? 12) / 2);
  put(R.inner, 300, 180);
  put(R.outer, 260, 180);
  put(R.upper, 280, 180 - (o.rightLid ?? 12) / 2);
  put(R.lower, 280, 180 + (o.rightLid ?? 12) / 2);
  const half = 40 + ((o.widen ?? 0) * 200) / 2;
  put(M.left, 320 + half, 260);
  put(M.right, 320 - half, 260);
  put(M.upper, 320, 260 - ((o.open ?? 0) * 200) / 2);
  put(M.lower, 320, 260 + ((o.open ?? 0) * 200) / 2);
  put(C.left, 420, 210);
  put(C.right, 220, 210);
  // As image landmarks: 0..1 of the frame, z in widths.
  return pts.flatMap((p) => [p[0] / W, p[1] / H, p[2] / W]);
}

const points = (flat: number[]): Vec3[] => Array.from({ length: FACE_LANDMARK_COUNT }, (_, i) => [flat[i * 3] * W, flat[i * 3 + 1] * H, 0]);
const NEUTRAL = calibrateFace([measureFace(points(face()))]);
const weights = (o: Parameters<typeof face>[0]) => faceWeights(measureFace(points(face(o))), NEUTRAL);

describe('face solver', () => {
  it('every name it gives is a preset through the morph table', () => {
    expect(Object.keys(weights({})).map(expressionForMorph)).toEqual(['blinkLeft', 'blinkRight', 'aa', 'ih', 'ou', 'ee', 'oh']);
  });

  it('a neutral face: no blink, no vowel above 0.05; shut eyes and a wink', () => {
    const n = weights({});
    for (const v of Object.values(n)) expect(v).toBeLessThan(0.05);
    const shut = weights({ leftLid: 1, rightLid: 1 });
    expect(shut.eyeBlinkLeft).toBeGreaterThan(0.9);
    expect(shut.eyeBlinkRight).toBeGreaterThan(0.9);
    const wink = weights({ leftLid: 0 });
    expect(wink.eyeBlinkLeft).toBe(1);
    expect(wink.eyeBlinkRight).toBe(0);
    // Half shut is about half a blink (the eye counts shut at 30% of its open gap: (1 - 6/12) / 0.7).
    expect(weights({ leftLid: 6 }).eyeBlinkLeft).toBeCloseTo(0.714, 2);
  });

  it("each vowel's mouth gives that vowel the largest weight, at least 0.8 and 0.6 above any other", () => {
    const shapes: Record<string, { open: number; widen: number }> = {
      viseme_aa: { open: 0.17, widen: 0 },
      viseme_ih: { open: 0.035, widen: 0.07 },
      viseme_ou: { open: 0.035, widen: -0.08 },
      viseme_ee: { open: 0.09, widen: 0.05 },
      viseme_oh: { open: 0.11, widen: -0.06 },
    };
    for (const [name, shape] of Object.entries(shapes)) {
      const w = weights(shape);
      const others = Object.entries(w).filter(([k]) => k !== name && k.startsWith('viseme')).map(([, v]) => v);
      expect(w[name], name).toBeGreaterThan(0.8);
      expect(w[name] - Math.max(...others), name).toBeGreaterThan(0.6);
    }
  });

  it('each eye against its own open gap: an eye the detector reads narrower is not a half blink', () => {
    // The right eye reads 8 px, the left 12 px on every frame but two blinks; pooled, the right eye
    // would count as (1 - 8/12) / 0.7 = 0.48 shut all along.
    const clip = [...Array.from({ length: 10 }, () => face({ rightLid: 8 })), face({ leftLid: 0, rightLid: 0 }), face({ leftLid: 0, rightLid: 0 })];
    const neutral = calibrateFace(clip.map((f) => measureFace(points(f))));
    expect(neutral.leftEyeOpen).toBeCloseTo(12 / 40, 9);
    expect(neutral.rightEyeOpen).toBeCloseTo(8 / 40, 9);
    const open = faceWeights(measureFace(points(clip[0])), neutral);
    expect([open.eyeBlinkLeft, open.eyeBlinkRight]).toEqual([0, 0]);
    const shut = faceWeights(measureFace(points(clip[10])), neutral);
    expect([shut.eyeBlinkLeft, shut.eyeBlinkRight]).toEqual([1, 1]);
    // Half of each eye's own gap is the same share of a blink for both: (1 - 1/2) / 0.7.
    const half = faceWeights(measureFace(points(face({ leftLid: 6, rightLid: 4 }))), neutral);
    expect(half.eyeBlinkLeft).toBeCloseTo(0.714, 3);
    expect(half.eyeBlinkRight).toBeCloseTo(0.714, 3);
  });

  it('reads the same at any size and rotation in the image', () => {
    const flat = face({ open: 0.09, widen: 0.05, leftLid: 4 });
    const a = 0.6, s = 1.7;
    const turned = points(flat).map(([x, y]) => [320 + s * ((x - 320) * Math.cos(a) - (y - 240) * Math.sin(a)), 240 + s * ((x - 320) * Math.sin(a) + (y - 240) * Math.cos(a)), 0] as Vec3);
    const base = faceWeights(measureFace(points(flat)), NEUTRAL);
    const got = faceWeights(measureFace(turned), NEUTRAL);
    for (const k of Object.keys(base)) expect(got[k]).toBeCloseTo(base[k], 9);
  });
});

describe('captureMotion with hands and a face', () => {
  const FPS = 30, D = 4, F = 580;
  const curlAt = (side: 'left' | 'right', t: number, j: number): Quat => fromAxisAngle(side === 'left' ? [0, 0, -1] : [0, 0, 1], ((50 + 20 * Math.sin(2 * t + j)) * Math.PI) / 180);
  const truthAt = (t: number): Partial<Record<HumanBoneName, Quat>> => {
    const w = walkPoseAt(t);
    const rot: Partial<Record<HumanBoneName, Quat>> = { ...w.rotations };
    for (const side of ['left', 'right'] as const) {
      for (const [j, d] of DIGITS.slice(1).entries()) {
        rot[`${side}${d.bones[0]}` as HumanBoneName] = mul(fromAxisAngle([0, 1, 0], 0.1 * (j - 1.5)), curlAt(side, t, j));
        rot[`${side}${d.bones[1]}` as HumanBoneName] = curlAt(side, t, j + 1);
        rot[`${side}${d.bones[2]}` as HumanBoneName] = curlAt(side, t, j + 2);
      }
    }
    return rot;
  };
  /** Weak perspective: x and y scaled by F/D about the frame's centre, z likewise (in widths). */
  const toImage = (p: Vec3): number[] => [(W / 2 + (F * p[0]) / D) / W, (H / 2 - (F * (p[1] - 1)) / D) / H, (-F * p[2]) / D / W];
  const frames: DetectedFrame[] = Array.from({ length: FPS + 1 }, (_, i) => {
    const t = i / FPS;
    const fk = standardFk(truthAt(t), walkPoseAt(t).hips);
    const L = landmarksOfPose(fk);
    const c = scale3(add3(L.leftHip, L.rightHip), 0.5);
    const world = POSE_LANDMARKS.flatMap((n) => [L[n][0] - c[0], -(L[n][1] - c[1]), -(L[n][2] - c[2])]);
    const image = POSE_LANDMARKS.flatMap((n) => toImage(L[n]));
    // Eyes shut on frames 10–12, the mouth says "a" on 20–24; the right hand is out of sight on 5–7.
    const f = face(i >= 10 && i <= 12 ? { leftLid: 0, rightLid: 0 } : i >= 20 && i <= 24 ? { open: 0.17 } : {});
    return {
      time: t,
      world,
      image,
      visibility: new Array(33).fill(1),
      face: f,
      leftHand: handLandmarksOfPose(fk, 'left').flatMap(toImage),
      rightHand: i >= 5 && i <= 7 ? undefined : handLandmarksOfPose(fk, 'right').flatMap(toImage),
    };
  });
  const motion = captureMotion(frames, { camera: { width: W, height: H }, filter: false, pinFeet: false, fixOutliers: false });

  it('finger rotations of every key equal the ones drawn within 0.01°; a hand out of sight has no key there', () => {
    let worst = 0;
    for (let i = 0; i <= FPS; i++) {
      if (i >= 5 && i <= 7) continue;
      const got = normalizedPoseAt(motion, i / FPS).rotations;
      const want = truthAt(i / FPS);
      for (const side of ['left', 'right'] as const) {
        for (const d of DIGITS.slice(1))
          for (const b of d.bones) {
            const bone = `${side}${b}` as HumanBoneName;
            worst = Math.max(worst, angleBetween(got[bone]!, want[bone]!));
          }
      }
    }
    expect((worst * 180) / Math.PI).toBeLessThan(0.01);
    const channel = (bone: HumanBoneName) => motion.channels.find((c) => c.node === motion.humanoid.boneToNode[bone] && c.path === 'rotation')!;
    expect(channel('leftIndexProximal').times.length).toBe(FPS + 1);
    expect(channel('rightIndexProximal').times.length).toBe(FPS + 1 - 3);
  });

  it('blinks and the vowel come out as preset expressions on their frames', () => {
    const weight = (preset: string, i: number) => {
      const e = motion.expressions.find((x) => x.name === preset)!;
      const ch = motion.channels.find((c) => c.node === e.node)!;
      return ch.values[i * 3];
    };
    for (let i = 0; i <= FPS; i++) {
      const shut = i >= 10 && i <= 12, a = i >= 20 && i <= 24;
      expect(weight('blinkLeft', i), `frame ${i}`).toBeCloseTo(shut ? 1 : 0, 2);
      expect(weight('blinkRight', i), `frame ${i}`).toBeCloseTo(shut ? 1 : 0, 2);
      if (a) expect(weight('aa', i)).toBeGreaterThan(0.9);
      else expect(weight('aa', i)).toBeLessThan(0.05);
    }
  });
});
