/** `vrma-studio loop IN [--blend S] -o OUT`: make the end flow into the start. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { loopSeam, DEFAULT_LOOP_BLEND } from '../../../shared/edits/loopSeam';
import { durationOf } from '../../../shared/motion/types';
import { motionSeam } from '../../../shared/edits/motionSeam';

export const loopCommand = editCommand({
  name: 'loop',
  summary: 'Blend the end into the start so the motion loops without a jump',
  synopsis: 'IN [--blend S]',
  description: [
    'Crossfades the last --blend seconds into the start and shortens the clip by that much, so the last pose',
    'is the first pose. The hips position is not blended (the travel is kept).',
  ],
  optionHelp: [`  --blend S          crossfade length in seconds, at most half the motion (default ${DEFAULT_LOOP_BLEND})`],
  options: { blend: { type: 'string' } },
  apply: ([m], v) => {
    const motion = loopSeam(m, numberOption(v, 'blend', DEFAULT_LOOP_BLEND));
    return {
      motion,
      report: [
        `duration ${durationOf(m).toFixed(3)} s -> ${durationOf(motion).toFixed(3)} s`,
        `seam (largest bone angle between last and first pose) ${motionSeam(m).toFixed(4)} rad -> ${motionSeam(motion).toExponential(2)} rad`,
      ],
    };
  },
});
