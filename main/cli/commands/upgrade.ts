/** `vrma-studio upgrade IN -o OUT [--force]`: rewrite any readable .vrma as a clean spec-1.0 file. */
import { oneInput, readInputFile, requiredOutput, writeOutputFile, type CliCommand } from '../command';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';

export const upgradeCommand: CliCommand = {
  name: 'upgrade',
  summary: 'Rewrite a .vrma as a clean VRMC_vrm_animation 1.0 file (LINEAR, lookAt as rotation)',
  usage: [
    'Usage: vrma-studio upgrade IN -o OUT [--force]',
    '',
    'Reads IN (any readable .vrma: legacy, STEP/CUBICSPLINE, quantized, sparse...) and writes OUT with',
    'specVersion 1.0, LINEAR float keys and the lookAt as a rotation. The write is atomic.',
    '',
    'Options:',
    '  -o, --output OUT   the file to write (required)',
    '  --force            replace OUT if it exists (otherwise an existing OUT is refused)',
  ].join('\n'),
  options: { output: { type: 'string', short: 'o' }, force: { type: 'boolean' } },
  async run(positionals, values, io) {
    const input = oneInput(positionals);
    const out = requiredOutput(values);
    const bytes = await readInputFile('upgrade', input, io);
    if (!bytes) return 1;
    let written: Uint8Array;
    let warnings: readonly string[];
    try {
      const motion = readVrma(bytes);
      warnings = motion.warnings.map((w) => w.text);
      written = writeVrma({ ...motion, specVersion: '1.0' });
    } catch (e) {
      if (!(e instanceof MotionError)) throw e;
      io.err(`vrma-studio upgrade: ${input}: ${e.message}`);
      return 1;
    }
    if (!(await writeOutputFile('upgrade', out, written, values.force === true, io))) return 1;
    io.out(`wrote ${out} (${written.length} bytes, spec 1.0)`);
    for (const w of warnings) io.out(`  fixed: ${w}`);
    return 0;
  },
};
