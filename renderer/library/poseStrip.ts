/**
 * A motion's thumbnail as a pose strip: the skeleton at the start, the middle and the end drawn as
 * stick figures side by side (seen from a three-quarter front view), all at one scale, so a walk, a
 * jump and a sit look different at a glance. Pure drawing on any 2D context (the worker's
 * OffscreenCanvas); the poses come from the core's forward kinematics.
 */
import type { Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { createPoseEvaluator } from '../../shared/vrma/fk';

const LIMBS: readonly (readonly HumanBoneName[])[] = [
  ['hips', 'spine', 'chest', 'upperChest', 'neck', 'head'],
  ['upperChest', 'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand'],
  ['upperChest', 'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand'],
  ['hips', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot'],
  ['hips', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot'],
];

type Ctx = Pick<CanvasRenderingContext2D, 'beginPath' | 'moveTo' | 'lineTo' | 'stroke' | 'fillRect' | 'arc' | 'fill' | 'clearRect'> & {
  strokeStyle: string | CanvasGradient | CanvasPattern;
  fillStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  lineCap: CanvasLineCap;
};

/** Draws the strip into a width×height area; returns how many poses were drawn. */
export function drawPoseStrip(ctx: Ctx, motion: Motion, width: number, height: number): number {
  const duration = durationOf(motion);
  const pose = createPoseEvaluator(motion);
  const times = duration > 0 ? [0, duration / 2, duration] : [0];
  const cos = Math.cos(0.5), sin = Math.sin(0.5);
  // 2D points per pose, the hips of each pose at its cell's centre line.
  const figures = times.map((t) => {
    const p = pose(t);
    const hips = p.hips?.position ?? [0, 0, 0];
    const pts = new Map<HumanBoneName, [number, number]>();
    for (const [bone, w] of Object.entries(p) as [HumanBoneName, { position: readonly number[] }][]) {
      const x = w.position[0] - hips[0], z = w.position[2] - hips[2];
      pts.set(bone, [x * cos + z * sin, w.position[1]]);
    }
    return pts;
  });
  let minY = Infinity, maxY = -Infinity, maxX = 0;
  for (const f of figures)
    for (const [x, y] of f.values()) {
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      maxX = Math.max(maxX, Math.abs(x));
    }
  if (!Number.isFinite(minY)) return 0;
  const cell = width / times.length;
  const scale = Math.min((height - 4) / Math.max(maxY - minY, 1e-3), (cell - 4) / Math.max(2 * maxX, 1e-3));
  ctx.clearRect(0, 0, width, height);
  ctx.lineWidth = 1.5;
  ctx.lineCap = 'round';
  figures.forEach((f, i) => {
    const cx = cell * (i + 0.5);
    const at = (b: HumanBoneName) => {
      const q = f.get(b);
      return q ? ([cx + q[0] * scale, height - 2 - (q[1] - minY) * scale] as const) : null;
    };
    ctx.strokeStyle = i === 1 ? '#7c96ff' : '#a9b1bf';
    ctx.beginPath();
    for (const limb of LIMBS) {
      let started = false;
      for (const b of limb) {
        const q = at(b);
        if (!q) continue;
        if (started) ctx.lineTo(q[0], q[1]);
        else ctx.moveTo(q[0], q[1]);
        started = true;
      }
    }
    ctx.stroke();
    const head = at('head');
    if (head) {
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.arc(head[0], head[1], 2, 0, Math.PI * 2);
      ctx.fill();
    }
  });
  return times.length;
}
