/** `vrma-studio speed IN --factor F -o OUT`: play faster or slower. */
import { numberOption } from '../command';
import { editCommand } from '../editCommand';
import { changeSpeed } from '../../../shared/edits/speed';

export const speedCommand = editCommand({
  name: 'speed',
  summary: 'Change the playback speed (times divided by the factor)',
  synopsis: 'IN --factor F',
  description: ['Divides every key time by F: 2 plays twice as fast (half the duration), 0.5 half as fast.'],
  optionHelp: ['  --factor F         speed factor, 0.001 to 1000 (required)'],
  options: { factor: { type: 'string' } },
  apply: ([m], v) => changeSpeed(m, numberOption(v, 'factor')),
});
