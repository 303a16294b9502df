/** `vrma-studio delete IN --from S --to S [--blend S] -o OUT`: cut a time range out. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { deleteRange, deleteBlend, DEFAULT_DELETE_BLEND } from '../../../shared/edits/deleteRange';
import { durationOf } from '../../../shared/motion/types';

export const deleteCommand = editCommand({
  name: 'delete',
  summary: 'Cut the time range [from, to] out and crossfade the joint',
  synopsis: 'IN --from S --to S [--blend S]',
  description: [
    'Removes [from, to] from IN. The parts before and after are joined with a crossfade of --blend seconds,',
    'so the motion gets (to - from) + blend shorter and has no jump at the joint.',
  ],
  optionHelp: [
    '  --from S           start of the cut, seconds (required)',
    '  --to S             end of the cut, seconds (required)',
    `  --blend S          crossfade length (default ${DEFAULT_DELETE_BLEND}; shortened to the parts around the cut)`,
  ],
  options: { from: { type: 'string' }, to: { type: 'string' }, blend: { type: 'string' } },
  apply: ([m], v) => {
    const from = numberOption(v, 'from');
    const to = numberOption(v, 'to');
    const blend = numberOption(v, 'blend', DEFAULT_DELETE_BLEND);
    const motion = deleteRange(m, from, to, blend);
    const used = deleteBlend(m, from, to, blend);
    return { motion, report: [`duration ${durationOf(m).toFixed(3)} s -> ${durationOf(motion).toFixed(3)} s (crossfade ${used.toFixed(3)} s)`] };
  },
});
