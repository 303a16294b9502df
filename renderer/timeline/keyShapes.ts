/**
 * The dope sheet's key marks, one shape per interpolation (issue 27; Blender marks kinds by colour,
 * MMD users by the curve, so a shape that reads in any colour scheme): a diamond for Linear, a square
 * for Constant, a circle for Bézier. Marks are added to the current path; the caller fills it
 * every MARKS_PER_FILL marks (one fill per mark rasterises 7x slower, one path for a whole sheet 30x).
 */
import { CUBIC, STEP } from '../../shared/motion/interpolation';

export const MARKS_PER_FILL = 32;

/** Adds key mark of `kind` centred at (x, y), radius r, to the path. */
export function addKeyMark(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, kind: number): void {
  if (kind === STEP) {
    ctx.rect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6);
    return;
  }
  if (kind === CUBIC) {
    ctx.moveTo(x + r * 0.9, y);
    ctx.arc(x, y, r * 0.9, 0, Math.PI * 2);
    return;
  }
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
}
