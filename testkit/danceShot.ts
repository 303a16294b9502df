/**
 * The dance shot the capture e2e tests record (capture-video as a WebM, capture-webcam as the fake
 * camera's .y4m): the dressed mannequin playing CMU 05_20 (fixture bvh/cmu_05_20-mb.bvh, the motion the
 * captures are compared with), 640×480, a 45° camera 2.8 m in front of its first-frame hips at 1 m
 * looking at 0.85 m, from 0 s for `seconds` at `fps`.
 */
import { readFileSync } from 'node:fs';
import { fixturePath } from './fixtures';
import type { VideoOptions } from './captureRender';
import type { Motion } from '../shared/motion/types';
import { convertToMotion } from '../shared/formats/index';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { writeVrma } from '../shared/vrma/write';
import { normalizedPoseAt } from '../shared/vrma/fk';

/** The frame size of the shot (the tests check the video element's against it). */
export const DANCE_SHOT_SIZE = { width: 640, height: 480 } as const;

/** The motion the shot plays: the truth a capture is compared with. */
export function danceTruth(): Motion {
  return convertToMotion('cmu_05_20-mb.bvh', readFileSync(fixturePath('bvh/cmu_05_20-mb.bvh')));
}

export function danceShot(truth: Motion, seconds: number, fps: number): VideoOptions {
  const h = normalizedPoseAt(truth, 0).hipsPosition!;
  return {
    vrm: makeMannequinVrm(),
    vrma: writeVrma(truth),
    start: 0,
    duration: seconds,
    fps,
    ...DANCE_SHOT_SIZE,
    fovDeg: 45,
    cameraPosition: [h[0], 1.0, h[2] + 2.8],
    cameraTarget: [h[0], 0.85, h[2]],
    dress: true,
  };
}
