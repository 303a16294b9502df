/**
 * The hips' path from the image track. World landmarks are centred on the hips, so where the body is
 * comes from the image: a pinhole camera with a known vertical field of view turns the hips' image
 * position and the body's size in pixels (against its size in metres from the world landmarks) into a
 * depth and a position. The path is scaled from the subject's leg length to the standard skeleton's, and
 * its floor is the lowest foot of the frame where the legs reach furthest below the hips.
 */
import type { Vec3 } from '../motion/types';
import { LANDMARK_INDEX as I, type PoseLandmarkName } from './landmarks';
import { REST_LANDMARKS } from './landmarkRig';

export interface CameraModel {
  /** Frame size in pixels (only the aspect and the focal length in pixels matter). */
  readonly width: number;
  readonly height: number;
  /** Vertical field of view in degrees. */
  readonly fovDeg: number;
}

/** A webcam's usual vertical field of view (about 78° diagonal on 16:9): the default when none is known. */
export const DEFAULT_FOV_DEG = 45;

/** Segments whose pixel length against their metric length gives the body's scale in the frame. */
const SCALE_SEGMENTS: readonly (readonly [PoseLandmarkName, PoseLandmarkName])[] = [
  ['leftShoulder', 'leftHip'],
  ['rightShoulder', 'rightHip'],
  ['leftShoulder', 'rightShoulder'],
  ['leftHip', 'rightHip'],
];

const R = REST_LANDMARKS;
const len = (a: PoseLandmarkName, b: PoseLandmarkName) => Math.hypot(R[a][0] - R[b][0], R[a][1] - R[b][1], R[a][2] - R[b][2]);
/** The standard skeleton's leg, measured between the same landmarks as the subject's. */
const STANDARD_LEG = len('leftHip', 'leftKnee') + len('leftKnee', 'leftAnkle') + len('leftAnkle', 'leftHeel');

export interface HipsFrame {
  /** 99 numbers: MediaPipe world landmarks (metres, y down). */
  readonly world: ArrayLike<number>;
  /** 99 numbers: image landmarks (0..1 of width and height). */
  readonly image: ArrayLike<number>;
}

function dist(a: ArrayLike<number>, i: number, j: number, sx = 1, sy = 1, useZ = true): number {
  const dx = (a[i * 3] - a[j * 3]) * sx, dy = (a[i * 3 + 1] - a[j * 3 + 1]) * sy, dz = useZ ? a[i * 3 + 2] - a[j * 3 + 2] : 0;
  return Math.hypot(dx, dy, dz);
}

export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
}

/** The camera's focal length in pixels. */
export function focalPixels(cam: CameraModel): number {
  return cam.height / 2 / Math.tan((cam.fovDeg * Math.PI) / 360);
}

/**
 * Where the hips' centre is in the camera's frame (MediaPipe's axes: x right, y down, z away, metres):
 * its depth is the torso's metric size over its size in pixels times the focal length, its x and y
 * the hips' image point at that depth.
 */
export function hipsInCamera(fr: HipsFrame, cam: CameraModel, f = focalPixels(cam)): Vec3 {
  let px = 0, m = 0;
  for (const [a, b] of SCALE_SEGMENTS) {
    px += dist(fr.image, I[a], I[b], cam.width, cam.height, false);
    m += dist(fr.world, I[a], I[b]);
  }
  const depth = (f * m) / Math.max(px, 1e-9);
  const u = ((fr.image[I.leftHip * 3] + fr.image[I.rightHip * 3]) / 2) * cam.width - cam.width / 2;
  const v = ((fr.image[I.leftHip * 3 + 1] + fr.image[I.rightHip * 3 + 1]) / 2) * cam.height - cam.height / 2;
  return [(u * depth) / f, (v * depth) / f, depth];
}

/** Hips position per frame in the standard skeleton's world (metres, y up, subject facing +Z at the camera). */
export function hipsPath(frames: readonly HipsFrame[], cam: CameraModel): Vec3[] {
  const f = focalPixels(cam);
  const legOf = (w: ArrayLike<number>, s: 'left' | 'right') => dist(w, I[`${s}Hip`], I[`${s}Knee`]) + dist(w, I[`${s}Knee`], I[`${s}Ankle`]) + dist(w, I[`${s}Ankle`], I[`${s}Heel`]);
  const legs = frames.map((fr) => Math.max(legOf(fr.world, 'left'), legOf(fr.world, 'right')));
  const scale = STANDARD_LEG / (median(legs) || 1);

  // Camera frame with y up (the image's y is down).
  const camera = frames.map((fr) => {
    const [x, y, z] = hipsInCamera(fr, cam, f);
    return [x, -y, z] as const;
  });

  // Floor: in the frame where the lowest foot point is furthest below the hips (world y is down).
  let best = 0, reach = -Infinity;
  frames.forEach((fr, k) => {
    let low = -Infinity;
    for (const n of ['leftHeel', 'rightHeel', 'leftFootIndex', 'rightFootIndex', 'leftAnkle', 'rightAnkle'] as const) low = Math.max(low, fr.world[I[n] * 3 + 1]);
    if (low > reach) {
      reach = low;
      best = k;
    }
  });
  const floorY = camera[best][1] - reach;
  const depth0 = median(camera.map((c) => c[2]));
  const x0 = camera[best][0];
  return camera.map(([x, y, z]) => [(x - x0) * scale, (y - floorY) * scale, -(z - depth0) * scale] as Vec3);
}
