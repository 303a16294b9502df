/**
 * The float .vrma (write.ts's default layout) as a list of byte parts rather than one buffer: the GLB
 * head (header, JSON, BIN chunk header), then each distinct time array and each channel's output in
 * file order. A part is a view of the Motion's own array wherever the writer's checks change nothing
 * (writeChecks.ts outputIsClean), and a checked copy otherwise. A 60-minute, 120 fps motion is a
 * 413 MB file: as parts it costs a few KB besides the arrays the page already holds, and the parts go
 * to a Blob or a file one by one (the autosave upload, Save) instead of being gathered into one buffer
 * and copied again by every layer on the way. Concatenated, the parts are writeVrma's bytes exactly.
 */
import type { Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { glbHead } from '../gltf/glb';
import { samplerForm } from './samplerForm';
import type { Json } from '../gltf/json';
import { baseJson, shareTimes } from './writeJson';
import { checkChannels, checkOutput, checkTimes, outputIsClean } from './writeChecks';
import { joinBytes } from '../bytes';

export interface VrmaParts {
  /** In file order; views of the Motion's arrays may be among them (do not transfer or change them). */
  readonly parts: readonly Uint8Array[];
  /** The file's length: the sum of the parts' lengths. */
  readonly byteLength: number;
}

const bytesOf = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function writeVrmaParts(motion: Motion): VrmaParts {
  checkChannels(motion);
  const channels = motion.channels;
  const forms = channels.map(samplerForm);
  const { unique, indexOf } = shareTimes(forms);
  checkTimes(unique);

  const accessors: Json[] = [];
  let timesBytes = 0;
  for (const t of unique) {
    accessors.push({ bufferView: 0, byteOffset: timesBytes, componentType: 5126, count: t.length, type: 'SCALAR', min: [t[0]], max: [t[t.length - 1]] });
    timesBytes += t.length * 4;
  }
  let valuesBytes = 0;
  const valueAccessor: number[] = [];
  for (const [i, c] of channels.entries()) {
    const n = componentsOf(c.path);
    valueAccessor.push(accessors.length);
    const output = forms[i].output;
    accessors.push({ bufferView: unique.length ? 1 : 0, byteOffset: valuesBytes, componentType: 5126, count: output.length / n, type: n === 4 ? 'VEC4' : 'VEC3' });
    valuesBytes += output.length * 4;
  }

  const gltf = baseJson(motion);
  if (channels.length) {
    gltf.buffers = [{ byteLength: timesBytes + valuesBytes }];
    gltf.bufferViews = [
      { buffer: 0, byteOffset: 0, byteLength: timesBytes },
      { buffer: 0, byteOffset: timesBytes, byteLength: valuesBytes },
    ];
    gltf.accessors = accessors;
    const animation: Json = {};
    if (motion.animationName !== undefined) animation.name = motion.animationName;
    animation.channels = channels.map((c, i) => ({ sampler: i, target: { node: c.node, path: c.path } }));
    animation.samplers = channels.map((_, i) => ({ input: indexOf[i], interpolation: forms[i].interpolation, output: valueAccessor[i] }));
    if (motion.animationExtras !== undefined) animation.extras = motion.animationExtras;
    gltf.animations = [animation];
  }

  const { head, total } = glbHead(gltf, channels.length ? timesBytes + valuesBytes : 0);
  const parts: Uint8Array[] = [head];
  if (channels.length) {
    for (const t of unique) parts.push(bytesOf(t));
    for (const [i, c] of channels.entries()) {
      const output = forms[i].output;
      if (outputIsClean(output, c, forms[i])) parts.push(bytesOf(output));
      else {
        const fixed = output.slice();
        checkOutput(fixed, c, forms[i]);
        parts.push(bytesOf(fixed));
      }
    }
  }
  return { parts, byteLength: total };
}

/** The parts as one buffer (what writeVrma returns). */
export function joinParts({ parts, byteLength }: VrmaParts): Uint8Array {
  return joinBytes(parts, byteLength);
}
