/** `vrma-studio in-place IN -o OUT`: remove the hips travel. */
import { editCommand } from '../editCommand';
import { inPlace } from '../../../shared/edits/inPlace';
import { boneChannel } from '../../../shared/motion/types';

export const inPlaceCommand = editCommand({
  name: 'in-place',
  summary: 'Remove the hips travel (x and z fixed, height kept)',
  synopsis: 'IN',
  description: ['Fixes the hips world x and z to their first value; height and rotations are unchanged.'],
  apply: ([m]) => ({
    motion: inPlace(m),
    report: boneChannel(m, 'hips', 'translation') ? [] : ['the motion has no hips translation: nothing to change'],
  }),
});
