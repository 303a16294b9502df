/**
 * BVH conversion speed per fixture (parse + recognise + retarget + ground + build, median) and the
 * fidelity of limb directions (BVH reference FK vs the converted motion on the T-pose skeleton, after
 * the best facing alignment), the same measure tests/unit/convert/bvhFidelity.test.ts asserts.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { convertBvhDetailed } from '../shared/convert/bvh/convertBvh';
import { createPoseEvaluator } from '../shared/vrma/fk';
import { rotateVec } from '../shared/math/quat';
import type { Vec3 } from '../shared/motion/types';
import type { HumanBoneName } from '../shared/vrm/humanBones';
import { LIMB_TARGETS, angleDeg, bestRotation, percentile, referenceFk } from '../testkit/bvhKit';
import { printTable, timeIt } from './timing';

const DIR = join(__dirname, '..', '..', 'shared', 'fixtures', 'bvh');

export async function run(): Promise<void> {
  if (!existsSync(DIR)) {
    console.log(`bvhFidelity: fixtures not found at ${DIR}; skipped`);
    return;
  }
  const rows: string[][] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.bvh')).sort()) {
    const bytes = new Uint8Array(readFileSync(join(DIR, file)));
    const timing = await timeIt(file, () => convertBvhDetailed(bytes), { minRuns: 3, minMs: 300 });
    const conv = convertBvhDetailed(bytes);
    const pose = createPoseEvaluator(conv.motion);
    const limbs = LIMB_TARGETS.map(([b, t]) => [b, t.find((x) => conv.bones[x] !== undefined)] as const)
      .filter((x): x is readonly [HumanBoneName, HumanBoneName] => x[1] !== undefined && conv.bones[x[0]] !== undefined);
    const pairs: [Vec3, Vec3][] = [];
    const step = Math.max(1, Math.floor(conv.bvh.frameCount / 200));
    for (let f = 0; f < conv.bvh.frameCount; f += step) {
      const ref = referenceFk(conv.bvh, f);
      const out = pose(f * conv.bvh.frameTime);
      for (const [b, t] of limbs) {
        const a = ref.positions[conv.bones[b]!], c = ref.positions[conv.bones[t]!];
        const pb = out[b]!.position, pt = out[t]!.position;
        pairs.push([[c[0] - a[0], c[1] - a[1], c[2] - a[2]], [pt[0] - pb[0], pt[1] - pb[1], pt[2] - pb[2]]]);
      }
    }
    const facing = bestRotation(pairs);
    const errors = pairs.map(([a, b]) => angleDeg(rotateVec(facing, a), b)).sort((x, y) => x - y);
    rows.push([
      file,
      String(conv.bvh.frameCount),
      timing.ms.toFixed(1),
      ((conv.bvh.frameCount / timing.ms) * 1000).toFixed(0),
      percentile(errors, 0.5).toFixed(4),
      percentile(errors, 0.95).toFixed(4),
    ]);
  }
  printTable('BVH conversion', ['file', 'frames', 'ms', 'frames/s', 'median °', 'p95 °'], rows);
}
