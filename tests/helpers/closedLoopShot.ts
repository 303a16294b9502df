/**
 * The closed loop's shot (issue 29), one definition for the tests that read it (capture-closed-loop,
 * capture-models): CMU 05_20 from 0 s, 30 frames at 10 fps, on the dressed mannequin wearing the drawn
 * human face (tests/helpers/drawnFace: open eyes, lips just apart), on its tiled floor, seen at
 * 640×480 through a 45° lens from 2.8 m in front of where the hips start.
 *
 * The face is there because BlazePose's depth is learned from people: on the mannequin's stylized
 * face (dark lenses, no whites) the detector reads the limbs' depth worse (limbs 12.6 / 28.4° median /
 * p95 against 10.5 / 26.2° with the drawn face, the same motion and frames otherwise).
 */
import { readFileSync } from 'node:fs';
import { convertToMotion } from '../../shared/formats/index';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { normalizedPoseAt } from '../../shared/vrma/fk';
import type { RenderOptions } from './captureRender';
import { fixturePath } from './fixtures';

export const CLOSED_LOOP_CAMERA = { width: 640, height: 480, fovDeg: 45 } as const;

/** The rendered truth and the rig's options for it (the model's complexity is the caller's). */
export function closedLoopShot(): { truth: Motion; render: Omit<RenderOptions, 'modelComplexity'> } {
  const name = 'cmu_05_20-mb.bvh';
  const truth = convertToMotion(name, readFileSync(fixturePath(`bvh/${name}`)));
  const h = normalizedPoseAt(truth, 0).hipsPosition!;
  return {
    truth,
    render: {
      vrm: makeMannequinVrm(),
      vrma: writeVrma(truth),
      start: 0,
      fps: 10,
      count: 30,
      ...CLOSED_LOOP_CAMERA,
      cameraPosition: [h[0], 1.0, h[2] + 2.8],
      cameraTarget: [h[0], 0.85, h[2]],
      dress: true,
      floor: true,
      // The rig holds the last entry for every later frame: one open, neutral face throughout.
      drawnFace: [{ leftLid: 0, rightLid: 0, mouth: 0.1 }],
    },
  };
}
