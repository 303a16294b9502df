/** `vrma-studio keep IN --from S --to S -o OUT`: keep a time range. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { keepRange } from '../../../shared/edits/keepRange';

export const keepCommand = editCommand({
  name: 'keep',
  summary: 'Keep only the time range [from, to] (times then start at 0)',
  synopsis: 'IN --from S --to S',
  description: ['Keeps [from, to] of IN, with interpolated keys at both ends, and shifts it to start at 0.'],
  optionHelp: ['  --from S           start of the range, seconds (required)', '  --to S             end of the range, seconds (required)'],
  options: { from: { type: 'string' }, to: { type: 'string' } },
  apply: ([m], v) => keepRange(m, numberOption(v, 'from'), numberOption(v, 'to')),
});
