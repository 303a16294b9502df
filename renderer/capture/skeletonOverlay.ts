/**
 * The skeleton the pose model sees, drawn over the camera's preview (a canvas the size of the video
 * frame on top of it): the lines of shared/capture's POSE_SEGMENTS between landmarks it saw well.
 */
import { LANDMARK_INDEX, POSE_SEGMENTS } from '../../shared/capture/landmarks';

/** Below this visibility a landmark's lines are left out (the body solver holds such points too). */
const MIN_VISIBILITY = 0.3;

export interface ImagePoint {
  readonly x: number;
  readonly y: number;
  readonly visibility?: number;
}

/** Draws one frame's landmarks (null: nobody found, the canvas is cleared); returns the lines drawn. */
export function drawSkeleton(canvas: HTMLCanvasElement, points: readonly ImagePoint[] | null): number {
  const g = canvas.getContext('2d');
  if (!g) return 0;
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (!points) return 0;
  const seen = (i: number) => (points[i]?.visibility ?? 1) >= MIN_VISIBILITY;
  g.lineWidth = Math.max(2, canvas.height / 120);
  g.strokeStyle = '#3ee08f';
  g.lineCap = 'round';
  let lines = 0;
  g.beginPath();
  for (const [a, b] of POSE_SEGMENTS) {
    const i = LANDMARK_INDEX[a], j = LANDMARK_INDEX[b];
    if (!seen(i) || !seen(j)) continue;
    g.moveTo(points[i].x * canvas.width, points[i].y * canvas.height);
    g.lineTo(points[j].x * canvas.width, points[j].y * canvas.height);
    lines++;
  }
  g.stroke();
  return lines;
}
