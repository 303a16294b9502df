/** `vrma-studio pose-report IN [--time S] [--json]`: how the pose at one moment looks, by FK (see poseReport). */
import { UsageError, numberOption, oneInput, readInputFile, type CliCommand } from '../command';
import { convertToMotion, isMotionFile, MOTION_EXTENSIONS } from '../../../shared/formats/index';
import { CONVERTIBLE_EXTENSIONS, formatList } from '../../../shared/formats/formats';
import { formatPoseReport, poseReport } from '../../../shared/convert/poseReport';
import { durationOf } from '../../../shared/motion/types';
import { MotionError } from '../../../shared/errors';

export const poseReportCommand: CliCommand = {
  name: 'pose-report',
  summary: 'Hips height, knee and elbow bends, shoulder twist and feet vs floor at one moment',
  usage: [
    'Usage: vrma-studio pose-report IN [--time S] [--json]',
    '',
    `IN is a .vrma (or a ${formatList(CONVERTIBLE_EXTENSIONS)} file, converted on the fly). The pose at time S (default 0) is`,
    'computed by forward kinematics from the animation and reported: hips height, each knee and elbow',
    'angle (0° = straight) and which way it bends, the twist between the hip line and the shoulder line,',
    'and where each foot is relative to the floor.',
    '',
    'Options:',
    '  --time S   seconds into the motion (clamped to its length)',
    '  --json     print the report as JSON',
  ].join('\n'),
  options: { time: { type: 'string', short: 't' }, json: { type: 'boolean' } },
  async run(positionals, values, io) {
    const input = oneInput(positionals);
    if (!isMotionFile(input)) throw new UsageError(`${input}: expected a ${formatList(MOTION_EXTENSIONS)} file`);
    const time = numberOption(values, 'time', 0);
    if (time < 0) throw new UsageError('--time must not be negative');
    const bytes = await readInputFile('pose-report', input, io);
    if (!bytes) return 1;
    try {
      const motion = convertToMotion(input, bytes);
      const t = Math.min(time, durationOf(motion));
      const report = poseReport(motion, t);
      if (values.json === true) io.out(JSON.stringify({ file: input, ...report }, null, 2));
      else {
        io.out(input);
        for (const line of formatPoseReport(report)) io.out(`  ${line}`);
      }
      return 0;
    } catch (e) {
      if (!(e instanceof MotionError)) throw e;
      io.err(`vrma-studio pose-report: ${input}: ${e.message}`);
      return 1;
    }
  },
};
