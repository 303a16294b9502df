/** `vrma-studio smooth IN [--sigma S] -o OUT`: Gaussian smoothing in time. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { smooth, DEFAULT_SIGMA, MAX_SIGMA } from '../../../shared/edits/smooth';

export const smoothCommand = editCommand({
  name: 'smooth',
  summary: 'Smooth bone tracks with a Gaussian window in time',
  synopsis: 'IN [--sigma S]',
  description: ['Averages each bone rotation (and the hips position) over a Gaussian window; expressions stay sharp.'],
  optionHelp: [`  --sigma S          window width (standard deviation) in seconds, 0 to ${MAX_SIGMA} (default ${DEFAULT_SIGMA})`],
  options: { sigma: { type: 'string' } },
  apply: ([m], v) => smooth(m, numberOption(v, 'sigma', DEFAULT_SIGMA)),
});
