/** `vrma-studio fix IN -o OUT`: drop broken frames at the start or end. */
import { editCommand } from '../editCommand';
import { findOutlierFrames, fixOutliers } from '../../../shared/edits/fixOutliers';

export const fixCommand = editCommand({
  name: 'fix',
  summary: 'Drop outlier frames at the start or end (e.g. a rest-pose frame 0)',
  synopsis: 'IN',
  description: [
    'Frames at either end whose summed rotation change to their neighbour exceeds median x 6 + 0.3 rad are',
    'dropped (at most 5 per end) and the times shifted to start at 0.',
  ],
  apply: ([m]) => {
    const found = findOutlierFrames(m);
    const atStart = found ? found.first : 0;
    const atEnd = found ? found.frames.length - 1 - found.last : 0;
    return { motion: fixOutliers(m), report: [`dropped ${atStart} frame(s) at the start, ${atEnd} at the end`] };
  },
});
