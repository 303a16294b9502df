/**
 * Builds .vrma bytes by hand, accessor by accessor, so tests can produce every encoding glTF allows
 * (integers, strides, sparse, STEP, CUBICSPLINE...) and every kind of damage, independently of our writer.
 */
import { packGlb } from '../shared/gltf/glb';

type Json = Record<string, unknown>;

export class RawGlb {
  private chunks: Uint8Array[] = [];
  private length = 0;
  readonly bufferViews: Json[] = [];
  readonly accessors: Json[] = [];

  /** Appends bytes (4-byte aligned) as a new buffer view; returns its index. */
  view(bytes: Uint8Array, byteStride?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) this.push(new Uint8Array(pad));
    this.bufferViews.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length, ...(byteStride ? { byteStride } : {}) });
    this.push(bytes);
    return this.bufferViews.length - 1;
  }

  private push(b: Uint8Array): void {
    this.chunks.push(b);
    this.length += b.length;
  }

  accessor(a: Json): number {
    this.accessors.push(a);
    return this.accessors.length - 1;
  }

  /** A float accessor over a fresh buffer view; adds min/max for SCALAR (key times). */
  floats(values: readonly number[], type: 'SCALAR' | 'VEC3' | 'VEC4'): number {
    const f = new Float32Array(values);
    const view = this.view(new Uint8Array(f.buffer));
    const n = type === 'SCALAR' ? 1 : type === 'VEC3' ? 3 : 4;
    return this.accessor({
      bufferView: view,
      componentType: 5126,
      count: values.length / n,
      type,
      ...(type === 'SCALAR' ? { min: [Math.min(...f)], max: [Math.max(...f)] } : {}),
    });
  }

  bin(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }

  build(json: Json): Uint8Array {
    const bin = this.bin();
    return packGlb({ ...json, buffers: [{ byteLength: bin.length }], bufferViews: this.bufferViews, accessors: this.accessors }, bin);
  }
}

/** Node indices of the small skeleton `skeletonJson` makes. */
export const NODE = { hips: 0, spine: 1, head: 2, happy: 3, lookAt: 4, root: 5 } as const;

/**
 * glTF JSON (minus buffers) of a small humanoid: root -> hips -> spine -> head, an expression node
 * and a lookAt node. `rootScale` scales the whole rig (0.01 = centimetres), `hipsY` is the hips height.
 */
export function skeletonJson(animations: Json[], opts: { rootScale?: number; hipsY?: number; specVersion?: string | null; lookAt?: boolean } = {}): Json {
  const s = opts.rootScale ?? 1;
  const hipsY = (opts.hipsY ?? 1) / s;
  const ext: Json = {
    humanoid: { humanBones: { hips: { node: NODE.hips }, spine: { node: NODE.spine }, head: { node: NODE.head } } },
    expressions: { preset: { happy: { node: NODE.happy } } },
    ...(opts.lookAt === false ? {} : { lookAt: { node: NODE.lookAt } }),
  };
  if (opts.specVersion !== null) ext.specVersion = opts.specVersion ?? '1.0';
  return {
    asset: { version: '2.0', generator: 'test rawVrma' },
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: { VRMC_vrm_animation: ext },
    scene: 0,
    scenes: [{ nodes: [NODE.root, NODE.happy, NODE.lookAt] }],
    nodes: [
      { name: 'hips', translation: [0, hipsY, 0], children: [NODE.spine] },
      { name: 'spine', translation: [0, 0.2 / s, 0], children: [NODE.head] },
      { name: 'head', translation: [0, 0.5 / s, 0] },
      { name: 'happy' },
      { name: 'lookAt' },
      { name: 'root', scale: [s, s, s], children: [NODE.hips] },
    ],
    animations,
  };
}

export function channel(sampler: number, node: number, path: string): Json {
  return { sampler, target: { node, path } };
}

/** A valid little motion: spine rotation (3 keys), hips translation, happy weight. */
export function simpleVrma(opts: Parameters<typeof skeletonJson>[1] = {}): Uint8Array {
  const g = new RawGlb();
  const t = g.floats([0, 0.5, 1], 'SCALAR');
  const q = Math.SQRT1_2;
  const rot = g.floats([0, 0, 0, 1, 0, q, 0, q, 0, 1, 0, 0], 'VEC4');
  const pos = g.floats([0, 1, 0, 0.1, 1.05, 0, 0.2, 1, 0].map((v) => v / (opts.rootScale ?? 1)), 'VEC3');
  const happy = g.floats([0, 0, 0, 1, 0, 0, 0, 0, 0], 'VEC3');
  return g.build(
    skeletonJson(
      [
        {
          channels: [channel(0, NODE.spine, 'rotation'), channel(1, NODE.hips, 'translation'), channel(2, NODE.happy, 'translation')],
          samplers: [
            { input: t, output: rot },
            { input: t, output: pos },
            { input: t, output: happy },
          ],
        },
      ],
      opts,
    ),
  );
}

/**
 * One file using every encoding the reader converts: normalized SHORT rotations, a strided output,
 * a sparse accessor, STEP and CUBICSPLINE samplers, a legacy lookAt translation and a second
 * animation. Fuzzing starts from it so those code paths get damaged inputs too.
 */
export function richVrma(): Uint8Array {
  const g = new RawGlb();
  const times = g.floats([0, 0.5, 1, 2], 'SCALAR');
  const s = Math.SQRT1_2;
  const shortRot = new Int16Array([0, 0, 0, 1, 0, s, 0, s, 0, 1, 0, 0, s, 0, 0, s].map((v) => Math.round(v * 32767)));
  const rotView = g.view(new Uint8Array(shortRot.buffer));
  const rot = g.accessor({ bufferView: rotView, componentType: 5122, normalized: true, count: 4, type: 'VEC4' });
  const strided = new Float32Array([0, 1, 0, 9, 0.1, 1, 0, 9, 0.2, 1.1, 0, 9, 0.3, 1, 0, 9]);
  const stridedView = g.view(new Uint8Array(strided.buffer), 16);
  const hips = g.accessor({ bufferView: stridedView, componentType: 5126, count: 4, type: 'VEC3' });
  const indices = g.view(new Uint8Array(new Uint8Array([1, 3]).buffer));
  const sparseValues = g.view(new Uint8Array(new Float32Array([1, 0, 0, 0.5, 0, 0]).buffer));
  const happy = g.accessor({ componentType: 5126, count: 4, type: 'VEC3', sparse: { count: 2, indices: { bufferView: indices, componentType: 5121 }, values: { bufferView: sparseValues } } });
  const stepOut = g.floats([1, 1, 1, 1.2, 1.2, 1.2, 1, 1, 1, 0.8, 0.8, 0.8], 'VEC3');
  const cubic = g.floats(Array.from({ length: 4 * 3 * 4 }, (_, i) => ((i * 7) % 5) / 5 - 0.4).map((v, i) => (i % 12 >= 4 && i % 12 < 8 && i % 4 === 3 ? 1 : v)), 'VEC4');
  const gaze = g.floats([0, 1.7, 5, 1, 1.7, 5, 0, 2.5, 5, -1, 1.2, 5], 'VEC3');
  return g.build(
    skeletonJson(
      [
        {
          name: 'rich',
          channels: [
            channel(0, NODE.spine, 'rotation'),
            channel(1, NODE.hips, 'translation'),
            channel(2, NODE.happy, 'translation'),
            channel(3, NODE.root, 'scale'),
            channel(4, NODE.head, 'rotation'),
            channel(5, NODE.lookAt, 'translation'),
          ],
          samplers: [
            { input: times, output: rot },
            { input: times, output: hips },
            { input: times, output: happy },
            { input: times, output: stepOut, interpolation: 'STEP' },
            { input: times, output: cubic, interpolation: 'CUBICSPLINE' },
            { input: times, output: gaze },
          ],
        },
        { name: 'second', channels: [channel(0, NODE.hips, 'translation')], samplers: [{ input: times, output: hips }] },
      ],
      { specVersion: null },
    ),
  );
}
