/** `vrma-studio strip IN [--fingers] [--hips-translation] -o OUT`: drop tracks. */
import { editCommand } from '../editCommand';
import { strip } from '../../../shared/edits/strip';

export const stripCommand = editCommand({
  name: 'strip',
  summary: 'Drop finger tracks and/or the hips translation',
  synopsis: 'IN [--fingers] [--hips-translation]',
  description: ['Removes the chosen tracks; every other track is kept as it is. Choose at least one.'],
  optionHelp: ['  --fingers          drop every finger bone track', '  --hips-translation drop the hips position track'],
  options: { fingers: { type: 'boolean' }, 'hips-translation': { type: 'boolean' } },
  apply: ([m], v) => {
    const motion = strip(m, { fingers: v.fingers === true, hipsTranslation: v['hips-translation'] === true });
    return { motion, report: [`dropped ${m.channels.length - motion.channels.length} track(s)`] };
  },
});
