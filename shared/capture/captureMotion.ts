/**
 * Detected frames -> a Motion: refit the limbs' depth from the image (limbDepth), filter the
 * landmarks, solve each frame, lay the hips path, bake the keys on the standard skeleton (frames read
 * as seen from behind mirrored back first), add the
 * fingers and the face where the detector saw them (handFaceTracks), then the clean-up every capture
 * needs (broken end frames cut by the outlier fixer, planted feet pinned). Frames where nobody was found get no key (the neighbours'
 * keys interpolate across them).
 */
import { MotionError } from '../errors';
import type { Motion } from '../motion/types';
import { buildMotion } from '../vrma/buildMotion';
import { canPinFeet, pinFeet } from '../edits/pinFeet';
import { fixOutliers } from '../edits/fixOutliers';
import { solveBody } from './bodySolver';
import { hipsPath, DEFAULT_FOV_DEG, type CameraModel } from './hipsPath';
import { bodyLandmarksFromFlat, POSE_LANDMARK_COUNT, type DetectedFrame } from './landmarks';
import { unflipFrames } from './flippedFrames';
import { fitLimbDepths } from './limbDepth';
import { faceTracks, handTracks } from './handFaceTracks';
import { rotationTracks } from './rotationTracks';
import { oneEuro, DEFAULT_ONE_EURO, type OneEuroParams } from './oneEuro';

export interface CaptureOptions {
  /** The video frame in pixels and the camera's vertical field of view (default DEFAULT_FOV_DEG). */
  readonly camera: Omit<CameraModel, 'fovDeg'> & { readonly fovDeg?: number };
  /** One-Euro parameters, or false for raw landmarks. */
  readonly filter?: OneEuroParams | false;
  /** Finger keys from the hands' landmarks where the frames have them (default true). */
  readonly hands?: boolean;
  /** Blink and vowel keys from the face's landmarks where the frames have them, the gaze from its irises (default true). */
  readonly face?: boolean;
  /** Refit the limbs' depth from the image and the bones' lengths (limbDepth; default true). */
  readonly limbDepth?: boolean;
  /** Pin planted feet (default true). */
  readonly pinFeet?: boolean;
  /** Cut broken frames at either end (default true). */
  readonly fixOutliers?: boolean;
  /** Landmarks less visible than this are held from the last frame that saw them (default 0.3). */
  readonly minVisibility?: number;
  readonly generator?: string;
}

/** At least this many frames with a person: two keys make a motion, fewer is no motion at all. */
export const MIN_CAPTURED_FRAMES = 2;

const N = POSE_LANDMARK_COUNT * 3;

/** Replace landmarks the detector barely saw with the last value it saw well (NaN until the first). */
function holdInvisible(frames: readonly DetectedFrame[], key: 'world' | 'image', minVisibility: number): Float64Array {
  const out = new Float64Array(frames.length * N);
  const last = new Float64Array(N).fill(NaN);
  frames.forEach((fr, k) => {
    const src = fr[key]!;
    for (let j = 0; j < POSE_LANDMARK_COUNT; j++) {
      const seen = (fr.visibility?.[j] ?? 1) >= minVisibility || Number.isNaN(last[j * 3]);
      for (let c = 0; c < 3; c++) {
        if (seen) last[j * 3 + c] = src[j * 3 + c];
        out[k * N + j * 3 + c] = last[j * 3 + c];
      }
    }
  });
  return out;
}

export function captureMotion(detected: readonly DetectedFrame[], opts: CaptureOptions): Motion {
  // A frame counts when it has every landmark as a finite number (anything else is no person there).
  const complete = (a: ArrayLike<number> | undefined) => !!a && a.length >= N && Array.prototype.every.call(a, (v: number, i: number) => i >= N || Number.isFinite(v));
  const frames = detected.filter((f) => complete(f.world) && complete(f.image) && Number.isFinite(f.time));
  for (let k = 1; k < frames.length; k++) {
    if (!(frames[k].time > frames[k - 1].time)) {
      throw new MotionError('BAD_DATA', 'capture.frameTimes', { frame: k, time: frames[k].time });
    }
  }
  if (frames.length < MIN_CAPTURED_FRAMES) {
    throw new MotionError('NO_KEYS', 'capture.noPerson', {
      found: frames.length,
      frames: detected.length,
    });
  }
  const times = Float64Array.from(frames, (f) => f.time);
  const minVis = opts.minVisibility ?? 0.3;
  let world = holdInvisible(frames, 'world', minVis);
  let image = holdInvisible(frames, 'image', minVis);
  unflipFrames(world, image, times);
  const camera: CameraModel = { ...opts.camera, fovDeg: opts.camera.fovDeg ?? DEFAULT_FOV_DEG };
  // Before the filter: the fit's choice between near and far reads each frame's own depth.
  if (opts.limbDepth !== false) fitLimbDepths(world, image, frames.length, camera);
  if (opts.filter !== false) {
    world = oneEuro(times, world, N, opts.filter ?? DEFAULT_ONE_EURO);
    image = oneEuro(times, image, N, opts.filter ?? DEFAULT_ONE_EURO);
  }

  const n = frames.length;
  const keyTimes = Float32Array.from(times, (t) => t - times[0]);
  const rotations = rotationTracks(keyTimes, (k) => solveBody(bodyLandmarksFromFlat(world.subarray(k * N, (k + 1) * N))).rotations);
  const size = { width: opts.camera.width, height: opts.camera.height };
  if (opts.hands !== false) Object.assign(rotations, handTracks(frames, keyTimes, size, opts.filter ?? DEFAULT_ONE_EURO));
  const face = opts.face !== false ? faceTracks(frames, keyTimes, size) : { expressions: {} };

  const path = hipsPath(
    Array.from({ length: n }, (_, k) => ({ world: world.subarray(k * N, (k + 1) * N), image: image.subarray(k * N, (k + 1) * N) })),
    camera,
  );
  const hipsValues = new Float32Array(n * 3);
  path.forEach((p, k) => hipsValues.set(p, k * 3));

  let motion = buildMotion({
    rotations,
    expressions: face.expressions,
    lookAt: face.lookAt,
    hipsTranslation: { times: keyTimes, values: hipsValues },
    generator: opts.generator ?? 'VRMA Studio capture',
  });
  if (opts.fixOutliers !== false && n > 3) motion = fixOutliers(motion);
  if (opts.pinFeet !== false && canPinFeet(motion)) motion = pinFeet(motion);
  return motion;
}
