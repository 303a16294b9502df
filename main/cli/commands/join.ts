/** `vrma-studio join A B [--blend S] [--no-fix] -o OUT`: append B after A. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { join, DEFAULT_JOIN_BLEND } from '../../../shared/edits/join';

export const joinCommand = editCommand({
  name: 'join',
  summary: 'Append motion B after motion A with a crossfade',
  synopsis: 'A B [--blend S] [--no-fix]',
  description: [
    'B is re-expressed on A\'s skeleton (bones by humanoid name, rotations through the normalized pose, hips',
    'scaled by the hips heights and continuing from where A is), then crossfaded in over --blend seconds.',
    'B\'s expression and lookAt tracks are dropped.',
  ],
  optionHelp: [
    `  --blend S          crossfade length in seconds (default ${DEFAULT_JOIN_BLEND})`,
    '  --no-fix           do not drop outlier frames at the ends of A and B first',
  ],
  options: { blend: { type: 'string' }, 'no-fix': { type: 'boolean' } },
  inputs: 2,
  apply: ([a, b], v) => join(a, b, { blend: numberOption(v, 'blend', DEFAULT_JOIN_BLEND), fixOutliers: v['no-fix'] !== true }),
});
