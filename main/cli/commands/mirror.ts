/** `vrma-studio mirror IN -o OUT`: swap left and right. */
import { editCommand } from '../editCommand';
import { mirror } from '../../../shared/edits/mirror';

export const mirrorCommand = editCommand({
  name: 'mirror',
  summary: "Swap the avatar's left and right",
  synopsis: 'IN',
  description: [
    'Mirrors the motion across the avatar\'s middle plane: each bone\'s normalized rotation goes mirrored onto',
    'the opposite bone, the hips position has x negated, left/right expressions swap, the gaze is mirrored.',
  ],
  apply: ([m]) => mirror(m),
});
