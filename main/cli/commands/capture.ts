/**
 * `vrma-studio capture VIDEO [-o OUT.vrma] [--hands] [--face] [--fps N]`: the arguments are checked
 * like every command's, then the command says why it cannot run here. Pose estimation needs what only a
 * browser engine has: @mediapipe/pose runs its graph on WebGL (it has no CPU path in its options) and
 * the video is decoded by Chromium's media stack; Node has neither, and driving a headless Chromium from
 * the CLI would need a browser the packaged app does not carry. The studio captures the same video
 * (Open… or drop). Messages are in the user's language (LC_ALL, LC_MESSAGES, LANG), unlike the other
 * commands' English, because this one is addressed to a person who expected a result.
 */
import { stat } from 'node:fs/promises';
import { UsageError, type CliCommand, type CliIO } from '../command';
import { detectLocale, translate, type Locale } from '../../../shared/i18n';
import { extensionOf, formatList, isVideoFile, VIDEO_EXTENSIONS, VRMA_EXTENSION } from '../../../shared/formats/formats';
import { vrmaBeside } from '../../../shared/formats/outputNames';

/** The frame rates a capture samples a video at. */
export const CAPTURE_FPS_RANGE = [1, 60] as const;

/** The user's language from the environment the CLI runs in ("ja_JP.UTF-8" -> ja). */
export function cliLocale(env: NodeJS.ProcessEnv = process.env): Locale {
  return detectLocale([env.LC_ALL, env.LC_MESSAGES, env.LANG].filter((v): v is string => !!v && v !== 'C' && v !== 'POSIX'));
}

export interface CaptureArgs {
  readonly video: string;
  readonly output: string;
  readonly fps: number;
  readonly hands: boolean;
  readonly face: boolean;
}

/** The checked arguments, or a UsageError in the user's language. */
export async function captureArgs(positionals: string[], values: Record<string, unknown>, locale: Locale): Promise<CaptureArgs> {
  const say = (key: string, params: Record<string, string | number>) => new UsageError(translate(key, params, undefined, locale));
  if (positionals.length !== 1) throw say('capture.cli.count', { count: positionals.length });
  const video = positionals[0];
  if (!isVideoFile(video)) throw say('capture.cli.notVideo', { file: video, formats: formatList(VIDEO_EXTENSIONS) });
  const output = typeof values.output === 'string' ? values.output : vrmaBeside(video);
  if (extensionOf(output) !== VRMA_EXTENSION) throw say('capture.cli.output', { output });
  const rawFps = values.fps;
  const fps = rawFps === undefined ? 30 : Number(rawFps);
  if (typeof rawFps === 'string' && (rawFps.trim() === '' || !Number.isFinite(fps))) throw say('capture.cli.fps', { fps: rawFps });
  if (fps < CAPTURE_FPS_RANGE[0] || fps > CAPTURE_FPS_RANGE[1]) throw say('capture.cli.fps', { fps: String(rawFps) });
  try {
    if (!(await stat(video)).isFile()) throw new Error('not a file');
  } catch {
    throw say('capture.cli.missing', { file: video });
  }
  return { video, output, fps, hands: values.hands === true, face: values.face === true };
}

export const captureCommand: CliCommand = {
  name: 'capture',
  summary: 'Make a motion from a video (pose estimation; runs in the studio, see --help)',
  usage: [
    'Usage: vrma-studio capture VIDEO [-o OUT.vrma] [--hands] [--face] [--fps N]',
    '',
    `VIDEO is ${formatList(VIDEO_EXTENSIONS)}. The arguments are checked, then the command explains that`,
    'pose estimation needs a browser engine (WebGL and a video decoder) that Node does not have, and exits',
    'with code 1: open the video in the studio, which captures it and saves OUT.vrma beside it. The hands',
    'and the face need the same engine: with --hands or --face it says which boxes to check in the studio.',
    '',
    'Options:',
    "  -o, --output FILE  the .vrma to write (default: VIDEO's name with .vrma, beside it)",
    "  --hands            finger rotations from the hands' landmarks",
    "  --face             blinks and vowels from the face's landmarks",
    `  --fps N            frames read per second of video, ${CAPTURE_FPS_RANGE[0]} to ${CAPTURE_FPS_RANGE[1]} (default 30)`,
  ].join('\n'),
  options: {
    output: { type: 'string', short: 'o' },
    hands: { type: 'boolean' },
    face: { type: 'boolean' },
    fps: { type: 'string' },
  },
  async run(positionals, values, io: CliIO) {
    const locale = cliLocale();
    const args = await captureArgs(positionals, values, locale);
    io.err(`vrma-studio capture: ${translate('capture.cli.blocked', { file: args.video, output: args.output }, undefined, locale)}`);
    // --hands and --face cannot run here either (the same models, on the same WebGL): say where they do.
    const parts = (['hands', 'face'] as const).filter((p) => args[p]);
    if (parts.length) {
      const list = (items: string[]) => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
      const say = (key: string) => translate(key, {}, undefined, locale);
      io.err(`vrma-studio capture: ${
        translate(
          'capture.cli.details',
          {
            parts: list(parts.map((p) => say(`capture.cli.part.${p}`))),
            choices: list(parts.map((p) => translate('capture.cli.choice', { label: say(`capture.settings.${p}`) }, undefined, locale))),
            panel: say('capture.settings.title'),
          },
          undefined,
          locale,
        )
      }`);
    }
    return 1;
  },
};
