/**
 * Pose estimation speed (issue 29): the dressed mannequin plays CMU 05_20 in headless Chromium at
 * 640×480 and @mediapipe/pose reads each frame, lite, full and heavy models (inference on the CPU, and
 * the full one on WebGL), then the full one with the
 * studio's Hands and Face (@mediapipe/hands, @mediapipe/face_mesh; CAPTURE_BENCH_RUNS=name,name picks runs). CPU seconds of the whole
 * browser process tree per frame (from /proc, so the other engineers' load on the machine does not
 * inflate it the way wall time is) from frame 2 to the last (the start-up and warm-up left out), minus a
 * run that only draws and reads back the frames.
 * Aim: 15 frames/s on 2 cores. "frames per CPU-second" is what one free core would do (the wasm runs on one thread).
 *
 * The dance's face is about 25 px, too small for the face model to find, so its "+ face" row is the
 * face detector alone. The face's own cost is measured on the close-up of capture-face.test.ts
 * (testkit/drawnFace: a drawn face the model finds in every frame): "close-up: full + face"
 * minus "close-up: full" is the face model's CPU per frame (its refined mesh, eyes, lips and irises).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../testkit/browser';
import { renderAndDetect } from '../testkit/captureRender';
import { convertToMotion } from '../shared/formats/index';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { writeVrma } from '../shared/vrma/write';
import { normalizedPoseAt } from '../shared/vrma/fk';
import { faceCloseUp, type FaceFrame } from '../testkit/drawnFace';
import { treeTicks } from './pageCpu';
import { printTable } from './timing';

const FRAMES = Number(process.env.CAPTURE_BENCH_FRAMES ?? 8);

export async function run(): Promise<void> {
  const name = 'cmu_05_20-mb.bvh';
  const file = join(__dirname, '..', '..', 'shared', 'fixtures', 'bvh', name);
  if (!existsSync(file)) {
    console.log(`capture: fixture not found at ${file}; skipped`);
    return;
  }
  const truth = convertToMotion(name, readFileSync(file));
  const h = normalizedPoseAt(truth, 0).hipsPosition!;
  const base = {
    vrm: makeMannequinVrm(),
    vrma: writeVrma(truth),
    start: 0,
    fps: 10,
    width: 640,
    height: 480,
    fovDeg: 45,
    cameraPosition: [h[0], 1.0, h[2] + 2.8] as const,
    cameraTarget: [h[0], 0.85, h[2]] as const,
    dress: true,
  };
  // The close-up: eyes shut every third frame, the mouth open every third (what the face test draws).
  const closeUp = faceCloseUp();
  const drawnFace: FaceFrame[] = Array.from({ length: 64 }, (_, i) => ({ leftLid: i % 3 === 1 ? 1 : 0, rightLid: i % 3 === 1 ? 1 : 0, mouth: i % 3 === 2 ? 1 : 0 }));
  const scenes = {
    dance: base,
    closeUp: { ...base, vrma: writeVrma(closeUp.motion), fovDeg: closeUp.fovDeg, cameraPosition: closeUp.cameraPosition, cameraTarget: closeUp.cameraTarget, drawnFace },
  };
  const rows: string[][] = [];
  let drawCpu = 0;
  // Inference on the CPU (XNNPACK) as the studio runs it here (renderer/capture/inferenceDevice.ts), and
  // the full model once on WebGL (SwiftShader here) for the comparison.
  const RUNS = [
    ['draw only', 'dance', 0, false, false, false],
    ['lite', 'dance', 0, true, false, false],
    ['full', 'dance', 1, true, false, false],
    ['heavy', 'dance', 2, true, false, false],
    ['full on WebGL', 'dance', 1, true, false, false],
    // The studio's Hands and Face (Settings.capture): @mediapipe/hands and face_mesh after the full pose model.
    ['full + hands', 'dance', 1, true, true, false],
    ['full + hands + face', 'dance', 1, true, true, true],
    ['close-up: full', 'closeUp', 1, true, false, false],
    ['close-up: full + face', 'closeUp', 1, true, false, true],
  ] as const;
  const cpuOf: Record<string, number> = {};
  for (const [label, scene, complexity, detect, hands, face] of RUNS.filter((r) => !process.env.CAPTURE_BENCH_RUNS || process.env.CAPTURE_BENCH_RUNS.split(',').includes(r[0]))) {
    const browser = await launchBrowser();
    try {
      // One run: the clocks are read when frame 2 is about to be drawn (page, wasm, model and shaders
      // loaded, the first frames' warm-up done) and after the last frame.
      let t0 = 0, w0 = 0;
      const r = await renderAndDetect(browser, {
        ...scenes[scene],
        count: 2 + FRAMES,
        modelComplexity: complexity,
        detect,
        hands,
        face,
        cpuInference: label !== 'full on WebGL',
        steadyFrom: 2,
        onSteady: () => {
          t0 = treeTicks(process.pid) ?? 0;
          w0 = performance.now();
        },
      });
      const cpuAll = ((treeTicks(process.pid) ?? 0) - t0) / 100;
      const wallAll = (performance.now() - w0) / 1000;
      const cpu = cpuAll / FRAMES;
      const wall = wallAll / FRAMES;
      // Drawing is subtracted from the detector's rows (the draw-only run's cost per frame).
      if (!detect) drawCpu = Math.max(0, cpu);
      const ms = [...r.ms.slice(2)].sort((a, b) => a - b);
      const detectorCpu = detect ? cpu - drawCpu : 0;
      cpuOf[label] = cpu;
      if (hands || face)
        console.log(
          `${label}: a hand in ${r.found?.hands} and a face in ${r.found?.face} of ${2 + FRAMES} frames (${
            scene === 'dance' ? 'the CMU dance seen whole, hands about 25 px' : 'the drawn face, about 110 px'
          })`,
        );
      const small = (v: number) => (v * 1000).toFixed(0);
      rows.push([label, small(cpu), detect ? (detectorCpu * 1000).toFixed(0) : '-', cpu > 0 ? (1 / cpu).toFixed(2) : '-', small(wall), ms[ms.length >> 1].toFixed(0), r.ms[0].toFixed(0)]);
    } finally {
      await browser.close();
    }
  }
  // The face model's own row: the close-up with the face read, minus the same close-up without it.
  if (cpuOf['close-up: full'] !== undefined && cpuOf['close-up: full + face'] !== undefined) {
    const face = cpuOf['close-up: full + face'] - cpuOf['close-up: full'];
    rows.push(['face model alone (close-up: + face − full)', (face * 1000).toFixed(0), (face * 1000).toFixed(0), face > 0 ? (1 / face).toFixed(2) : '-', '-', '-', '-']);
  }
  printTable(`capture: @mediapipe/pose at 640×480, ${FRAMES} steady frames (CPU of the browser process tree from frame 2 to the last)`, [
    'run',
    'CPU ms/frame',
    'detector CPU ms/frame',
    'frames per CPU-second',
    'wall ms/frame',
    'median send() ms',
    'first frame ms',
  ], rows);
}
