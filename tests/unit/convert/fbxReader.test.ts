/**
 * The FBX reader on inputs with known answers (testkit/fbxWriter.ts): every encoding (binary 7400
 * with 32-bit offsets, 7500 with 64-bit, raw and deflated arrays, ASCII) gives the same motion; a
 * rotation and a hips path come out as the numbers put in (Mixamo centimetres -> metres); Euler orders
 * match three.js FBXLoader's; each kind of damage gives its typed error; and 3,000 fuzzed inputs
 * convert or throw MotionError (100,000 in `npm run fuzz`).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as THREE from 'three';
import { MotionError } from '../../../shared/errors';
import { convertFbx, convertFbxTakes, listFbxTakes, readFbx } from '../../../shared/convert/fbx/convertFbx';
import { parseBinaryFbx } from '../../../shared/convert/fbx/binary';
import { eulerToQuat, localMatrix, transformParts } from '../../../shared/convert/fbx/transform';
import { forwardKinematics } from '../../../shared/vrma/fk';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { encodeAsciiFbx, encodeBinaryFbx, fbxScene } from '../../../testkit/fbxWriter';
import { checkFbx, fbxSeeds, mutatedFbx } from '../../fuzz/fbxMutations';

const SCENE = fbxScene({
  rotations: { LeftArm: [[0, 0, 0], [0, 0, -30], [0, 0, -60]] },
  hips: [[0, 95, 0], [5, 95, 0], [10, 95, 0]],
});

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof MotionError) return e.code;
    throw e;
  }
  return 'none';
}

describe('FBX reader', () => {
  it('reads binary 7400 (32-bit offsets) and 7500 (64-bit), raw and deflated, and ASCII alike', () => {
    const encodings = [encodeBinaryFbx(SCENE, 7400, true), encodeBinaryFbx(SCENE, 7400, false), encodeBinaryFbx(SCENE, 7500, true), encodeBinaryFbx(SCENE, 7500, false), encodeAsciiFbx(SCENE)];
    expect(parseBinaryFbx(encodings[2]).version).toBe(7500);
    const motions = encodings.map((b) => convertFbx(b));
    const ref = motions[0];
    expect(ref.channels.length).toBeGreaterThan(10);
    for (const m of motions.slice(1)) {
      expect(m.channels.length).toBe(ref.channels.length);
      m.channels.forEach((c, i) => {
        expect(Array.from(c.times)).toEqual(Array.from(ref.channels[i].times));
        c.values.forEach((v, k) => expect(v).toBeCloseTo(ref.channels[i].values[k], 6));
      });
    }
  });

  it('a keyed rotation and a hips path come out as put in: Mixamo names, centimetres to metres, 30 fps', () => {
    expect(listFbxTakes(encodeBinaryFbx(SCENE))).toEqual([{ name: 'Take 001', duration: expect.closeTo(2 / 30, 9), fps: 30, keys: 18 }]);
    const motion = readVrma(writeVrma(convertFbx(encodeBinaryFbx(SCENE))));
    const source = readFbx(encodeBinaryFbx(SCENE));
    expect(source.rig().recognition.method).toBe('names');
    expect(source.rig().bones.leftUpperArm).toBe(source.skeleton.joints.findIndex((j) => j.name === 'mixamorig:LeftArm'));
    for (const [f, deg] of [[0, 0], [1, -30], [2, -60]] as const) {
      const pose = forwardKinematics(motion, f / 30);
      const a = pose.leftUpperArm!.position, b = pose.leftLowerArm!.position;
      const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const len = Math.hypot(...d);
      // The arm turns about the file's Z (forward) axis: (cos, sin) in the frontal plane, the avatar's left +X.
      expect(d[0] / len).toBeCloseTo(Math.cos((deg * Math.PI) / 180), 4);
      expect(d[1] / len).toBeCloseTo(Math.sin((deg * Math.PI) / 180), 4);
      expect(d[2] / len).toBeCloseTo(0, 4);
    }
    // Hips moved 5 cm per frame along +X: 0.05 m per frame in the output.
    const h0 = forwardKinematics(motion, 0).hips!.position, h2 = forwardKinematics(motion, 2 / 30).hips!.position;
    expect(h2[0] - h0[0]).toBeCloseTo(0.1, 5);
    expect(h2[1] - h0[1]).toBeCloseTo(0, 5);
  });

  it('Euler rotation orders and pre-rotation are the ones three.js FBXLoader uses', () => {
    const threeOrders = ['ZYX', 'YZX', 'XZY', 'ZXY', 'YXZ', 'XYZ'] as const;
    const deg: [number, number, number] = [25, -40, 70];
    threeOrders.forEach((order, k) => {
      const q = eulerToQuat(deg, k);
      const [x, y, z] = deg.map((d) => (d * Math.PI) / 180);
      const t = new THREE.Quaternion().setFromEuler(new THREE.Euler(x, y, z, order));
      expect(Math.abs(q[0] * t.x + q[1] * t.y + q[2] * t.z + q[3] * t.w)).toBeCloseTo(1, 9);
    });
    // Local = T · Rpre · R · Rpost⁻¹ · S: a child offset along X under PreRotation Z 90° and R = 0 points along +Y.
    const m = localMatrix(
      transformParts({ id: '1', name: 'j', type: 'LimbNode', parent: null, children: [], props: new Map([['PreRotation', [0, 0, 90]], ['RotationOrder', [0]]]) }),
      [1, 2, 3],
      [0, 0, 0],
      [1, 1, 1],
    );
    expect(m[0]).toBeCloseTo(0, 9);
    expect(m[1]).toBeCloseTo(1, 9);
    expect([m[12], m[13], m[14]]).toEqual([1, 2, 3]);
  });

  it('names the problem: not an FBX, truncated record, bad array encoding, a take with no keys, no humanoid', () => {
    const good = encodeBinaryFbx(SCENE, 7400, true);
    expect(codeOf(() => convertFbx(new TextEncoder().encode('hello, not an fbx')))).toBe('BAD_FBX');
    expect(codeOf(() => convertFbx(good.slice(0, Math.floor(good.length * 0.6))))).toBe('TRUNCATED');
    // Corrupt the zlib stream of every deflated array (their data starts with 0x78 0x9c / 0x78 0xda).
    const bad = good.slice();
    for (let i = 0; i + 1 < bad.length; i++) if (bad[i] === 0x78 && (bad[i + 1] === 0x9c || bad[i + 1] === 0xda)) bad[i + 2] ^= 0xff;
    const badCode = codeOf(() => convertFbx(bad));
    expect(badCode).toBe('BAD_FBX');
    expect(() => convertFbx(bad)).toThrow(/the compressed array at byte [\d,]+ cannot be expanded/);
    // An array that claims a billion elements in a few bytes is refused before anything is allocated.
    const huge = encodeBinaryFbx(SCENE, 7400, false);
    const dv = new DataView(huge.buffer);
    const at = new TextDecoder('latin1').decode(huge).indexOf('KeyTime') + 'KeyTime'.length + 1; // type byte 'l'
    dv.setUint32(at, 1_000_000_000, true);
    expect(codeOf(() => convertFbx(huge))).toBe('BAD_FBX');
    expect(codeOf(() => convertFbx(encodeBinaryFbx(fbxScene({}))))).toBe('NO_KEYS');
    const chain = fbxScene({ rotations: { Hips: [[0, 0, 0], [0, 10, 0]] }, prefix: 'tail_' });
    // Renamed bones still form a humanoid shape: recognised by structure, not refused.
    expect(convertFbxTakes(encodeBinaryFbx(chain))[0].motion.warnings.map((w) => w.text).join(' ')).toMatch(/structure/);
  });

  it('fuzz: 3,000 damaged files convert or throw MotionError', () => {
    const seeds = fbxSeeds();
    for (const s of seeds) expect(checkFbx(s.bytes)).toBe('converted');
    const counts = { converted: 0, rejected: 0 };
    fc.assert(
      fc.property(mutatedFbx(seeds), (input) => {
        counts[checkFbx(input.bytes)]++;
      }),
      { numRuns: 3000, seed: 14 },
    );
    // Both outcomes happen: the damage is real and some of it is survivable.
    expect(counts.rejected).toBeGreaterThan(300);
    expect(counts.converted).toBeGreaterThan(100);
  }, 120_000);
});
