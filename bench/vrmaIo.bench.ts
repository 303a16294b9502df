/**
 * Reading and writing a 10-minute 60 fps VRMA (55 rotation tracks, hips translation, 5 expressions):
 * our readVrma/writeVrma against @gltf-transform/core (with a minimal VRMC_vrm_animation extension so
 * it keeps the humanoid map) and against a plain copy of the same bytes, in one process.
 */
import { Extension, WebIO, type Node, type ReaderContext, type WriterContext } from '@gltf-transform/core';
import { readVrma } from '../shared/vrma/read';
import { writeVrma } from '../shared/vrma/write';
import { LONG_MOTION, makeLongMotion } from '../testkit/longMotion';
import { printTable, timeRounds, type Timing } from './timing';

type Json = Record<string, any>;

/** Keeps VRMC_vrm_animation through a gltf-transform read/write, remapping its node indices. */
class VrmcVrmAnimation extends Extension {
  static override readonly EXTENSION_NAME = 'VRMC_vrm_animation';
  override readonly extensionName = 'VRMC_vrm_animation';
  private data: Json | undefined;
  private refs: { holder: Json; node: Node }[] = [];

  override read(context: ReaderContext): this {
    const ext = context.jsonDoc.json.extensions?.[this.extensionName] as Json | undefined;
    if (!ext) return this;
    this.data = structuredClone(ext);
    const holders: Json[] = [
      ...Object.values((this.data.humanoid?.humanBones ?? {}) as Json),
      ...Object.values((this.data.expressions?.preset ?? {}) as Json),
      ...Object.values((this.data.expressions?.custom ?? {}) as Json),
      ...(this.data.lookAt ? [this.data.lookAt] : []),
    ];
    this.refs = holders.map((holder) => ({ holder, node: context.nodes[holder.node as number] }));
    return this;
  }

  override write(context: WriterContext): this {
    if (!this.data) return this;
    for (const { holder, node } of this.refs) holder.node = context.nodeIndexMap.get(node);
    const json = context.jsonDoc.json;
    json.extensions = { ...(json.extensions ?? {}), [this.extensionName]: this.data };
    return this;
  }
}

const ratio = (t: Timing, base: Timing) => (t.ms / base.ms).toFixed(2) + 'x';

export async function run(): Promise<void> {
  const motion = makeLongMotion();
  const bytes = writeVrma(motion);
  const mb = (bytes.length / 1e6).toFixed(1);
  console.log(
    `\nVRMA read/write: ${LONG_MOTION.seconds / 60} min at ${LONG_MOTION.fps} fps, ${motion.channels.length} tracks ` +
      `(${LONG_MOTION.rotationTracks} rotations, hips translation, ${LONG_MOTION.expressionTracks} expressions), ${motion.channels[0].times.length} keys each, ${mb} MB`,
  );

  const io = new WebIO().registerExtensions([VrmcVrmAnimation]);
  // Sanity: both libraries really read the same data back.
  const doc = await io.readBinary(bytes);
  const ours = readVrma(bytes);
  const theirsKeys = doc.getRoot().listAnimations()[0].listSamplers().reduce((s, smp) => s + smp.getInput()!.getCount(), 0);
  const oursKeys = ours.channels.reduce((s, c) => s + c.times.length, 0);
  if (theirsKeys !== oursKeys) throw new Error(`gltf-transform read ${theirsKeys} keys, we read ${oursKeys}`);
  const roundTrip = readVrma(await io.writeBinary(doc));
  if (Object.keys(roundTrip.humanoid.boneToNode).length !== Object.keys(ours.humanoid.boneToNode).length) {
    throw new Error('gltf-transform lost the humanoid map');
  }

  const [copy, read, gtRead, write, gtWrite] = await timeRounds([
    { label: 'plain copy of the bytes', fn: () => bytes.slice() },
    { label: 'readVrma', fn: () => readVrma(bytes) },
    { label: 'gltf-transform readBinary', fn: () => io.readBinary(bytes) },
    { label: 'writeVrma', fn: () => writeVrma(ours) },
    { label: 'gltf-transform writeBinary', fn: () => io.writeBinary(doc) },
  ]);

  printTable(
    'VRMA I/O (median ms per run)',
    ['operation', 'ms', 'runs', 'vs copy', 'vs gltf-transform'],
    [
      [copy.label, copy.ms.toFixed(2), String(copy.runs), '1.00x', ''],
      [read.label, read.ms.toFixed(2), String(read.runs), ratio(read, copy), ratio(read, gtRead)],
      [gtRead.label, gtRead.ms.toFixed(2), String(gtRead.runs), ratio(gtRead, copy), '1.00x'],
      [write.label, write.ms.toFixed(2), String(write.runs), ratio(write, copy), ratio(write, gtWrite)],
      [gtWrite.label, gtWrite.ms.toFixed(2), String(gtWrite.runs), ratio(gtWrite, copy), '1.00x'],
    ],
  );
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `aim read <= 3x copy: ${verdict(read.ms <= 3 * copy.ms)}; write <= 5x copy: ${verdict(write.ms <= 5 * copy.ms)}; ` +
      `both faster than gltf-transform: ${verdict(read.ms < gtRead.ms && write.ms < gtWrite.ms)}`,
  );
}
