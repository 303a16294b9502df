/**
 * The generated long motion of a length written as one .vrma in a folder of its own, as the studio
 * benches open it from the library: the hour at 120 fps (about 26 M keys), shorter ones at 60.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeVrma } from '../shared/vrma/write';
import { makeLongMotion } from '../testkit/longMotion';

export const fpsFor = (seconds: number) => (seconds >= 3600 ? 120 : 60);

export interface LongMotionFolder {
  /** `long-<seconds>s-<fps>fps`: the folder's name and the file's without `.vrma`. */
  readonly name: string;
  readonly folder: string;
  readonly keys: number;
  /** Bytes of the motion's own arrays (values, and the one shared time array). */
  readonly arrays: number;
}

export function writeLongMotionFolder(dir: string, seconds: number): LongMotionFolder {
  const fps = fpsFor(seconds);
  const name = `long-${seconds}s-${fps}fps`;
  const motion = makeLongMotion(seconds, fps);
  const keys = motion.channels.reduce((s, c) => s + c.times.length, 0);
  const arrays = motion.channels.reduce((s, c) => s + c.values.byteLength, 0) + motion.channels[0].times.byteLength;
  const folder = join(dir, name);
  execFileSync('mkdir', ['-p', folder]);
  writeFileSync(join(folder, `${name}.vrma`), writeVrma(motion));
  return { name, folder, keys, arrays };
}
