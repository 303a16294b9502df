/** `vrma-studio reverse IN -o OUT`: play backwards. */
import { editCommand } from '../editCommand';
import { reverse } from '../../../shared/edits/reverse';

export const reverseCommand = editCommand({
  name: 'reverse',
  summary: 'Play the motion backwards',
  synopsis: 'IN',
  description: ['Time t becomes duration - t on every track.'],
  apply: ([m]) => reverse(m),
});
