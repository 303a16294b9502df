/** `vrma-studio resample IN --fps N -o OUT`: every track on one regular grid. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { resample } from '../../../shared/edits/resample';

export const resampleCommand = editCommand({
  name: 'resample',
  summary: 'Resample every track at N keys per second',
  synopsis: 'IN --fps N',
  description: ['Samples every track on the grid 0, 1/N, 2/N, ... (plus the last time when it is off the grid).'],
  optionHelp: ['  --fps N            keys per second, 1 to 1000 (required)'],
  options: { fps: { type: 'string' } },
  apply: ([m], v) => resample(m, numberOption(v, 'fps')),
});
