/**
 * VRM Animation -> BVH motion capture: a T-pose humanoid (the standard proportions, or an avatar's
 * with `avatar`) with Mixamo joint names, identity rest rotations, so each joint's channels are its
 * normalized local rotation W(parent)⁻¹·W(joint) as Euler angles (ZXY or XYZ order, degrees, kept
 * continuous across frames), the hips path as absolute root positions (centimetres or metres),
 * every frame at `fps`. The gaze turns the eye joints (shared/export/gaze.ts); BVH has no expressions:
 * the report says so.
 */
import type { Motion } from '../motion/types';
import { warning, type MotionWarning } from '../warnings';
import { fail } from '../errors';
import { eulerOfFlat, eulerZXYOfFlat } from '../math/euler';
import { readAvatarSkeleton } from '../avatar/avatarSkeleton';
import { sampleFrames } from './frames';
import { forEachJointEulers, hipsScaleOf } from './jointEulers';
import { skeletonGaze } from './gaze';
import { exportSkeleton, type ExportSkeleton } from './skeleton';
import { mixamoName } from './boneNames';
import type { ExportResult } from './report';

export interface BvhExportOptions {
  /** Channel order: 'ZXY' (default, R = Rz·Rx·Ry) or 'XYZ' (R = Rx·Ry·Rz). */
  readonly order?: 'ZXY' | 'XYZ';
  /** Units of offsets and positions: 'cm' (default) or 'm'. */
  readonly units?: 'cm' | 'm';
  /** Frame rate, default 30. */
  readonly fps?: number;
  /** A .vrm whose proportions the skeleton takes. */
  readonly avatar?: Uint8Array;
}

const DEG = 180 / Math.PI;
const CHANNELS = { ZXY: 'Zrotation Xrotation Yrotation', XYZ: 'Xrotation Yrotation Zrotation' } as const;

const SCALE = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];

/**
 * v rounded to `digits` decimals in its shortest form ("12.5", not "12.50000"): the same value as
 * toFixed reads back to, several times faster on the millions of numbers of a long motion. Zero is
 * "0", never "-0".
 */
function num(v: number, digits: number): string {
  const k = SCALE[digits];
  const r = Math.round(v * k) / k;
  return r === 0 ? '0' : String(r);
}

/** ".0001" … ".9999" without trailing zeros ('' for 0): the fraction digits of angles. */
const FRACTION4: readonly string[] = Array.from({ length: 10000 }, (_, i) => (i === 0 ? '' : `.${String(i).padStart(4, '0').replace(/0+$/, '')}`));

/**
 * An angle in degrees to 4 decimals (1e-4°, far inside any reader's tolerance) from integers and a
 * table: the channels are millions of numbers on a long motion, and number-to-shortest-string is
 * the writer's cost otherwise.
 */
function angle4(v: number): string {
  const n = Math.round(v * 1e4);
  if (n === 0) return '0';
  const a = n < 0 ? -n : n;
  const whole = Math.floor(a / 1e4);
  return `${n < 0 ? '-' : ''}${whole}${FRACTION4[a - whole * 1e4]}`;
}

/**
 * Where a leaf joint's bone ends: half its own length further on, the head straight up and the toes
 * flat forward (the T-pose's toe direction: readers that align the rest pose by bone directions,
 * ours included, would otherwise read the toes as bent).
 */
function endSite(bone: string, offset: readonly number[]): readonly number[] {
  if (bone === 'head') return [0, 0.15, 0];
  // Toes and eyes point forward (+Z), as readers (ours: humanoid/restAlignment.ts) take them to.
  if (/Toes$/.test(bone)) return [0, 0, Math.hypot(...offset) * 0.5];
  if (/Eye$/.test(bone)) return [0, 0, 0.02];
  return offset.map((x) => x * 0.5);
}

/** The hierarchy text and the joints in its depth-first order, the order of every frame's channels. */
function hierarchy(sk: ExportSkeleton, order: 'ZXY' | 'XYZ', scale: number): { text: string; dfs: number[] } {
  const lines: string[] = ['HIERARCHY'];
  const dfs: number[] = [];
  const children = sk.bones.map((_, i) => sk.bones.map((__, j) => j).filter((j) => sk.parent[j] === i));
  const vec = (v: readonly number[]) => v.map((x) => num(x * scale, 6)).join(' ');
  const write = (i: number, depth: number) => {
    const pad = '\t'.repeat(depth);
    dfs.push(i);
    const p = sk.parent[i];
    const offset = p < 0 ? sk.positions[i] : sk.positions[i].map((x, k) => x - sk.positions[p][k]);
    lines.push(`${pad}${p < 0 ? 'ROOT' : 'JOINT'} ${mixamoName(sk.bones[i])}`, `${pad}{`, `${pad}\tOFFSET ${vec(offset)}`);
    lines.push(`${pad}\tCHANNELS ${p < 0 ? `6 Xposition Yposition Zposition ${CHANNELS[order]}` : `3 ${CHANNELS[order]}`}`);
    for (const c of children[i]) write(c, depth + 1);
    if (!children[i].length) {
      lines.push(`${pad}\tEnd Site`, `${pad}\t{`, `${pad}\t\tOFFSET ${vec(endSite(sk.bones[i], offset))}`, `${pad}\t}`);
    }
    lines.push(`${pad}}`);
  };
  write(0, 0);
  return { text: lines.join('\n'), dfs };
}

export function writeBvh(motion: Motion, options: BvhExportOptions = {}): ExportResult {
  const order = options.order ?? 'ZXY';
  const units = options.units ?? 'cm';
  if (order !== 'ZXY' && order !== 'XYZ') fail('BAD_PARAMETER', 'export.badOption', { option: 'order', allowed: 'ZXY, XYZ', value: String(order) });
  if (units !== 'cm' && units !== 'm') fail('BAD_PARAMETER', 'export.badOption', { option: 'units', allowed: 'cm, m', value: String(units) });
  const report: MotionWarning[] = [];
  const avatar = options.avatar ? readAvatarSkeleton(options.avatar) : undefined;
  const frames = skeletonGaze('BVH', sampleFrames(motion, options.fps ?? 30), options.avatar, avatar, false, report);
  const sk = exportSkeleton(frames, avatar, 'BVH', report);
  const scale = units === 'cm' ? 100 : 1;
  const hipsScale = hipsScaleOf(frames, sk);
  const n = frames.times.length;
  const m = sk.bones.length;
  const decompose = order === 'ZXY' ? eulerZXYOfFlat : eulerOfFlat;
  const rows: string[] = new Array(n);
  const row: string[] = new Array(3 + m * 3);
  const rest = sk.positions[0];
  const { text: header, dfs } = hierarchy(sk, order, scale);
  forEachJointEulers(frames, sk, decompose, (f, euler) => {
    for (let c = 0; c < 3; c++) row[c] = num((frames.hips ? frames.hips[f * 3 + c] * hipsScale : rest[c]) * scale, 5);
    for (let k = 0; k < m; k++) for (let c = 0; c < 3; c++) row[3 + k * 3 + c] = angle4(euler[dfs[k] * 3 + c] * DEG);
    rows[f] = row.join(' ');
  });
  if (frames.expressions.size)
    report.push(
      warning(`BVH: ${frames.expressions.size} expression(s) the format cannot carry left out: ${[...frames.expressions.keys()].join(', ')}`, 'export.expressionsNotCarried', {
        format: 'BVH',
        count: frames.expressions.size,
        names: [...frames.expressions.keys()].join(', '),
      }),
    );
  const text = `${header}\nMOTION\nFrames: ${n}\nFrame Time: ${(1 / frames.fps).toPrecision(9)}\n${rows.join('\n')}\n`;
  return { bytes: new TextEncoder().encode(text), report, frames: n, fps: frames.fps };
}
