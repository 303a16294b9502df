/**
 * The closed loop's clips (issue 29): one table of the motions, avatars and cameras the capture is
 * measured on, so that one 30-frame clip does not decide the pipeline's parameters or the model.
 * Each clip renders a fixture motion (BVH or an FBX take, converted by our readers) on an avatar in
 * the capture rig (captureRender) at 640×480, from a camera placed relative to the hips' path.
 *
 * The mannequin wears clothes and the drawn human face (testkit/drawnFace): BlazePose's depth
 * is learned from people, and on the mannequin's stylized face it reads the limbs worse (limbs 12.6 /
 * 28.4° against 10.5 / 26.2° with the drawn face on 05_20, the frames otherwise the same).
 */
import { readFileSync } from 'node:fs';
import { convertToMotion } from '../shared/formats/index';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import type { Motion, Quat, Vec3 } from '../shared/motion/types';
import { writeVrma } from '../shared/vrma/write';
import { normalizedPoseAt } from '../shared/vrma/fk';
import type { RenderOptions } from './captureRender';
import { fixturePath } from './fixtures';
import { cameraView, compareCapture, type Comparison, type Stats } from './captureCompare';
import { captureMotion, type CaptureOptions } from '../shared/capture/captureMotion';
import type { DetectedFrame } from '../shared/capture/landmarks';
import { findOutlierFrames, fixOutliers } from '../shared/edits/fixOutliers';

export const CLOSED_LOOP_CAMERA = { width: 640, height: 480, fovDeg: 45 } as const;

export interface ClosedLoopClip {
  readonly label: string;
  /** Fixture path of the motion, and the take of a file with several. */
  readonly motion: string;
  readonly take?: string;
  /** 'mannequin' (dressed, the drawn face) or a fixture avatar's path. */
  readonly avatar: 'mannequin' | string;
  readonly start: number;
  readonly fps: number;
  readonly count: number;
  /**
   * Camera offset (x, z) from the hips, at their first frame's place (`around: 'start'`) or their mean
   * over the clip's frames (a figure that travels); its height and the height it looks at are absolute.
   */
  readonly camera: { readonly offset: readonly [number, number]; readonly around: 'start' | 'mean'; readonly height: number; readonly lookHeight: number };
}

/**
 * The clips the capture is measured on: three motions on the dressed mannequin, each seen from in front
 * of the figure as someone films themself (CMU 05_20, a dance in place, 2.8 m away: the original shot;
 * CMU 12_01, a walk toward the camera from 5.3 to 2.9 m; the FBX take "Working", kneeling and
 * hammering, 2.8 m away), and two the detector does worse on, reported beside them: the pirouette
 * (a spin, a third of it seen from behind) and 05_20 on the VRM 0.x cryptovoxels avatar (a faceless
 * white wooden figure).
 */
export const CLOSED_LOOP_CLIPS = {
  dance: { label: '05_20 dance', motion: 'bvh/cmu_05_20-mb.bvh', avatar: 'mannequin', start: 0, fps: 10, count: 30, camera: { offset: [0, 2.8], around: 'start', height: 1.0, lookHeight: 0.85 } },
  walk: { label: '12_01 walk', motion: 'bvh/cmu_12_01_walk.bvh', avatar: 'mannequin', start: 0.5, fps: 10, count: 30, camera: { offset: [0, 4.0], around: 'mean', height: 1.0, lookHeight: 0.85 } },
  working: {
    label: 'FBX Working',
    motion: 'fbx/quaternius_animated_human.fbx',
    take: 'Human Armature|Working',
    avatar: 'mannequin',
    start: 0,
    fps: 10,
    count: 30,
    camera: { offset: [-2.8, 0], around: 'mean', height: 1.0, lookHeight: 0.85 },
  },
  pirouette: { label: 'pirouette', motion: 'bvh/pirouette.bvh', avatar: 'mannequin', start: 0.5, fps: 10, count: 30, camera: { offset: [0, 3.2], around: 'mean', height: 1.0, lookHeight: 0.85 } },
  voxels: {
    label: '05_20 cryptovoxels',
    motion: 'bvh/cmu_05_20-mb.bvh',
    avatar: 'vrm0/cryptovoxels.vrm',
    start: 0,
    fps: 10,
    count: 30,
    camera: { offset: [0, 2.8], around: 'start', height: 1.0, lookHeight: 0.85 },
  },
} as const satisfies Record<string, ClosedLoopClip>;

/** The three motions the aims are measured on (the other two are reported beside them). */
export const AIM_CLIPS: readonly ClosedLoopClip[] = [CLOSED_LOOP_CLIPS.dance, CLOSED_LOOP_CLIPS.walk, CLOSED_LOOP_CLIPS.working];

function truthOf(clip: ClosedLoopClip): Motion {
  const file = clip.motion.split('/').pop()!;
  return convertToMotion(file, readFileSync(fixturePath(clip.motion)), clip.take ? { take: clip.take } : {});
}

/** Where the hips are on average over the clip's frames (the camera is placed from it). */
function meanHips(truth: Motion, clip: ClosedLoopClip): Vec3 {
  const sum = [0, 0, 0];
  for (let i = 0; i < clip.count; i++) {
    const h = normalizedPoseAt(truth, clip.start + i / clip.fps).hipsPosition ?? [0, 0, 0];
    for (let c = 0; c < 3; c++) sum[c] += h[c] / clip.count;
  }
  return [sum[0], sum[1], sum[2]];
}

/**
 * The rendered truth, the rig's options for a clip (the model's complexity is the caller's) and the
 * camera's view of the world (compareCapture's `view`).
 */
export function closedLoopClip(clip: ClosedLoopClip): { truth: Motion; render: Omit<RenderOptions, 'modelComplexity'>; view: Quat } {
  const truth = truthOf(clip);
  const h = clip.camera.around === 'start' ? normalizedPoseAt(truth, clip.start).hipsPosition! : meanHips(truth, clip);
  const mannequin = clip.avatar === 'mannequin';
  const cameraPosition: Vec3 = [h[0] + clip.camera.offset[0], clip.camera.height, h[2] + clip.camera.offset[1]];
  const cameraTarget: Vec3 = [h[0], clip.camera.lookHeight, h[2]];
  return {
    truth,
    view: cameraView(cameraPosition, cameraTarget),
    render: {
      vrm: mannequin ? makeMannequinVrm() : new Uint8Array(readFileSync(fixturePath(clip.avatar))),
      vrma: writeVrma(truth),
      start: clip.start,
      fps: clip.fps,
      count: clip.count,
      ...CLOSED_LOOP_CAMERA,
      cameraPosition,
      cameraTarget,
      dress: mannequin,
      floor: true,
      // The rig holds the last entry for every later frame: one open, neutral face throughout.
      drawnFace: mannequin ? [{ leftLid: 0, rightLid: 0, mouth: 0.1 }] : undefined,
    },
  };
}

/**
 * The capture of a clip's detected frames against its truth, as the closed loop measures it: no
 * pin-feet, the outlier fixer's cut at the ends (the detector's first frame has no track to follow).
 */
export function measureClip(truth: Motion, frames: readonly DetectedFrame[], view: Quat, opts: Partial<CaptureOptions> = {}): Comparison {
  const raw = captureMotion(frames, { camera: CLOSED_LOOP_CAMERA, pinFeet: false, fixOutliers: false, ...opts });
  const outliers = findOutlierFrames(raw);
  return compareCapture(truth, fixOutliers(raw), frames, outliers ? outliers.frames[outliers.first] : 0, (t) => t, view);
}

/** One line of the closed loop's table: limbs median / p95 / max, the worst part's median, the hips path. */
export function formatClipRow(label: string, c: Comparison): string {
  const f = (s: Stats) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} / ${s.max.toFixed(1)}`;
  const limbs = Object.entries(c.parts).filter(([n]) => /arm|forearm|thigh|shin/.test(n));
  const [worst, w] = limbs.reduce((a, b) => (b[1].median > a[1].median ? b : a));
  return `${label.padEnd(22)} ${String(c.found).padStart(2)}/${c.rendered}  limbs ${f(c.limbs).padEnd(18)}  worst ${worst} ${w.median.toFixed(1)}  hips ${(c.hips.median * 100).toFixed(1)} cm`;
}
