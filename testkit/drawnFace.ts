/**
 * A human-like face drawn on a 2D canvas for the face's closed loop (issue 29): skin with shading,
 * hair, ears, brows, eyes with white, iris, pupil and lids, a nose and lips, on a transparent ground,
 * so the capture rig (captureRender's `drawnFace`) lays it over the mannequin's head as a texture. The
 * mannequin's own face (dark lenses, no whites) is too stylized for MediaPipe's face detector; this
 * one it finds in every frame at 640×480. Each frame says how closed each eye is and how open the
 * mouth is, which is the truth the captured blink and vowel keys are compared with.
 *
 * It is page code (a string the rig's page runs), not a module of the tests: the drawing happens in
 * the browser that renders the video.
 */

import type { Motion, Vec3 } from '../shared/motion/types';
import { buildMotion } from '../shared/vrma/buildMotion';
import { fromAxisAngle } from '../shared/math/quat';

/**
 * One frame's face: lids 0 (open) to 1 (closed), the mouth 0 (shut) to 1 (wide open), and where the
 * eyes look: the irises moved by `gaze` [x, y] eye half-widths, +x to the subject's left (the
 * viewer's right), +y up (absent: straight ahead).
 */
export interface FaceFrame {
  readonly leftLid: number;
  readonly rightLid: number;
  readonly mouth: number;
  readonly gaze?: readonly [number, number];
}

/** The canvas the face is drawn in (its aspect is the decal's, 0.2 × 0.25 m on the head). */
export const FACE_CANVAS = { width: 256, height: 320 } as const;

const deg = Math.PI / 180;

/**
 * The close-up the face is read in: the mannequin standing, arms down (the pose model needs a person
 * for the face to be read), seen at 640×480 from 1.1 m with a 40° lens: the face about 110 px tall.
 */
export function faceCloseUp(): { motion: Motion; fovDeg: number; cameraPosition: Vec3; cameraTarget: Vec3 } {
  const constant = (q: readonly number[]) => ({ times: Float32Array.of(0), values: Float32Array.from(q) });
  const motion = buildMotion({
    rotations: { leftUpperArm: constant(fromAxisAngle([0, 0, 1], -65 * deg)), rightUpperArm: constant(fromAxisAngle([0, 0, 1], 65 * deg)) },
    generator: 'faceCloseUp (test)',
  });
  return { motion, fovDeg: 40, cameraPosition: [0, 1.58, 1.1], cameraTarget: [0, 1.52, 0] };
}

/**
 * `drawFace(g, w, h, frame)`: the face centred in a w × h canvas, scaled to its width (256 px: the
 * face oval is 190 × 250 px). "left" is the subject's left, drawn on the viewer's right.
 */
export const DRAW_FACE_JS = `
window.drawFace = (g, W, H, o) => {
  const s = W / 256, cx = W / 2, cy = H / 2 + 6 * s;
  g.clearRect(0, 0, W, H);
  g.fillStyle = '#2b1a10'; g.beginPath(); g.ellipse(cx, cy - 12 * s, 118 * s, 140 * s, 0, 0, Math.PI * 2); g.fill();
  const grad = g.createRadialGradient(cx - 20 * s, cy - 30 * s, 20 * s, cx, cy, 140 * s);
  grad.addColorStop(0, '#f1c6a6'); grad.addColorStop(0.7, '#dca283'); grad.addColorStop(1, '#b97b5c');
  g.fillStyle = '#d39a7a';
  for (const sx of [-1, 1]) { g.beginPath(); g.ellipse(cx + sx * 95 * s, cy - 5 * s, 14 * s, 26 * s, 0, 0, Math.PI * 2); g.fill(); }
  g.fillStyle = grad; g.beginPath(); g.ellipse(cx, cy, 95 * s, 125 * s, 0, 0, Math.PI * 2); g.fill();
  g.fillStyle = '#2b1a10'; g.beginPath(); g.ellipse(cx, cy - 110 * s, 100 * s, 45 * s, 0, Math.PI, 0); g.fill();
  g.beginPath(); g.ellipse(cx, cy - 105 * s, 98 * s, 30 * s, 0, 0, Math.PI); g.fill();
  g.strokeStyle = '#3a2416'; g.lineWidth = 7 * s; g.lineCap = 'round';
  for (const sx of [-1, 1]) { g.beginPath(); g.moveTo(cx + sx * 18 * s, cy - 45 * s); g.quadraticCurveTo(cx + sx * 40 * s, cy - 56 * s, cx + sx * 66 * s, cy - 44 * s); g.stroke(); }
  // The subject's right eye on the viewer's left.
  for (const [sx, lid] of [[-1, o.rightLid], [1, o.leftLid]]) {
    const ex = cx + sx * 40 * s, ey = cy - 18 * s, ew = 24 * s, eh = 12 * s, open = 1 - lid;
    const ix = ex + (o.gaze ? o.gaze[0] : 0) * ew, iy = ey - (o.gaze ? o.gaze[1] : 0) * ew;
    if (open > 0.05) {
      g.save(); g.beginPath();
      g.moveTo(ex - ew, ey); g.quadraticCurveTo(ex, ey - 2 * eh * open, ex + ew, ey); g.quadraticCurveTo(ex, ey + 1.6 * eh * open, ex - ew, ey); g.closePath();
      g.fillStyle = '#f4f0ec'; g.fill(); g.clip();
      g.fillStyle = '#5a3a22'; g.beginPath(); g.arc(ix, iy, 10 * s, 0, Math.PI * 2); g.fill();
      g.fillStyle = '#111'; g.beginPath(); g.arc(ix, iy, 4.5 * s, 0, Math.PI * 2); g.fill();
      g.fillStyle = '#fff'; g.beginPath(); g.arc(ix + 3 * s, iy - 3 * s, 2 * s, 0, Math.PI * 2); g.fill();
      g.restore();
      g.strokeStyle = '#2a1a10'; g.lineWidth = 3 * s; g.beginPath(); g.moveTo(ex - ew, ey); g.quadraticCurveTo(ex, ey - 2 * eh * open, ex + ew, ey); g.stroke();
      g.lineWidth = 1.2 * s; g.strokeStyle = '#8a5a44'; g.beginPath(); g.moveTo(ex - ew, ey); g.quadraticCurveTo(ex, ey + 1.6 * eh * open, ex + ew, ey); g.stroke();
    } else {
      g.strokeStyle = '#2a1a10'; g.lineWidth = 3 * s; g.beginPath(); g.moveTo(ex - ew, ey); g.quadraticCurveTo(ex, ey + 5 * s, ex + ew, ey); g.stroke();
    }
  }
  g.strokeStyle = 'rgba(120,70,50,0.6)'; g.lineWidth = 3 * s;
  g.beginPath(); g.moveTo(cx - 6 * s, cy - 10 * s); g.quadraticCurveTo(cx - 14 * s, cy + 25 * s, cx - 16 * s, cy + 30 * s); g.stroke();
  g.fillStyle = 'rgba(90,45,30,0.8)';
  for (const sx of [-1, 1]) { g.beginPath(); g.ellipse(cx + sx * 9 * s, cy + 33 * s, 5 * s, 3 * s, 0, 0, Math.PI * 2); g.fill(); }
  const my = cy + 68 * s, mw = 34 * s, mo = (o.mouth || 0) * 34 * s;
  g.fillStyle = '#a8453f';
  g.beginPath(); g.moveTo(cx - mw, my); g.quadraticCurveTo(cx, my - 12 * s, cx + mw, my); g.quadraticCurveTo(cx, my + 4 * s, cx - mw, my); g.fill();
  if (mo > 1) {
    g.fillStyle = '#3a0f0f'; g.beginPath(); g.moveTo(cx - mw * 0.9, my + 2 * s); g.quadraticCurveTo(cx, my + 2 * s + 2 * mo, cx + mw * 0.9, my + 2 * s); g.quadraticCurveTo(cx, my, cx - mw * 0.9, my + 2 * s); g.fill();
    g.fillStyle = '#eee'; g.fillRect(cx - 18 * s, my + 1 * s, 36 * s, Math.min(7 * s, mo * 0.4));
  }
  g.fillStyle = '#b4524a';
  const ly = my + 2 * s + mo;
  g.beginPath(); g.moveTo(cx - mw, my); g.quadraticCurveTo(cx, ly + 14 * s, cx + mw, my); g.quadraticCurveTo(cx, ly + 3 * s, cx - mw, my); g.fill();
};`;
