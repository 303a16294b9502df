/** `vrma-studio optimize IN [--rot-tol RAD] [--pos-tol M] -o OUT`: fewer keys with a guaranteed error bound. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { optimize, DEFAULT_POSITION_TOLERANCE, DEFAULT_ROTATION_TOLERANCE } from '../../../shared/edits/optimize';
import { maxPoseError } from '../../../shared/edits/poseError';
import type { Motion } from '../../../shared/motion/types';

const keys = (m: Motion) => m.channels.reduce((s, c) => s + c.times.length, 0);

export const optimizeCommand = editCommand({
  name: 'optimize',
  summary: 'Drop keys that interpolation reproduces within a tolerance',
  synopsis: 'IN [--rot-tol RAD] [--pos-tol M]',
  description: [
    'Per track Douglas-Peucker: a key is kept only when leaving it out would move the pose by more than the',
    'tolerance. The error at every source key is guaranteed within it; the measured maximum is printed.',
  ],
  optionHelp: [
    `  --rot-tol RAD      largest rotation error in radians (default ${DEFAULT_ROTATION_TOLERANCE})`,
    `  --pos-tol M        largest position error in metres (default ${DEFAULT_POSITION_TOLERANCE})`,
  ],
  options: { 'rot-tol': { type: 'string' }, 'pos-tol': { type: 'string' } },
  apply: ([m], v) =>
    optimize(m, {
      rotationTolerance: numberOption(v, 'rot-tol', DEFAULT_ROTATION_TOLERANCE),
      positionTolerance: numberOption(v, 'pos-tol', DEFAULT_POSITION_TOLERANCE),
    }),
  afterWrite: ([m], out, [inBytes], outBytes) => {
    const err = maxPoseError(m, out);
    return [
      `keys ${keys(m)} -> ${keys(out)} (${((100 * keys(out)) / Math.max(1, keys(m))).toFixed(1)}%)`,
      `bytes ${inBytes.length} -> ${outBytes.length} (${((100 * outBytes.length) / inBytes.length).toFixed(1)}%)`,
      `measured maximum error at every source key: rotation ${err.rotation.toFixed(5)} rad, position ${(err.position * 1000).toFixed(3)} mm`,
    ];
  },
});
