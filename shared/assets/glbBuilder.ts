/**
 * Accumulates typed arrays into one BIN chunk with one buffer view per accessor, so generated
 * assets are valid glTF (4-byte aligned views, min/max on positions) without a glTF library.
 */
import { packGlb } from '../gltf/glb';

const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

type AccessorType = 'SCALAR' | 'VEC3' | 'VEC4';
const COMPONENTS: Record<AccessorType, number> = { SCALAR: 1, VEC3: 3, VEC4: 4 };

export class GlbBuilder {
  readonly accessors: Record<string, unknown>[] = [];
  readonly bufferViews: Record<string, unknown>[] = [];
  private readonly chunks: Uint8Array[] = [];
  private byteLength = 0;

  private addView(bytes: Uint8Array, target: number): number {
    const view = this.bufferViews.length;
    this.bufferViews.push({ buffer: 0, byteOffset: this.byteLength, byteLength: bytes.byteLength, target });
    this.chunks.push(bytes);
    this.byteLength += bytes.byteLength;
    const pad = (4 - (this.byteLength % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.byteLength += pad;
    }
    return view;
  }

  /** A float vertex attribute; `withBounds` adds min/max (required for POSITION and morph targets). */
  floatAttribute(data: Float32Array, type: AccessorType, withBounds: boolean): number {
    const n = COMPONENTS[type];
    const count = data.length / n;
    const accessor: Record<string, unknown> = {
      bufferView: this.addView(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ARRAY_BUFFER),
      componentType: FLOAT,
      count,
      type,
    };
    if (withBounds) {
      const min = new Array<number>(n).fill(Infinity);
      const max = new Array<number>(n).fill(-Infinity);
      for (let i = 0; i < data.length; i++) {
        const c = i % n;
        if (data[i] < min[c]) min[c] = data[i];
        if (data[i] > max[c]) max[c] = data[i];
      }
      accessor.min = min;
      accessor.max = max;
    }
    this.accessors.push(accessor);
    return this.accessors.length - 1;
  }

  /** An all-zero VEC3 accessor with no buffer view (glTF initialises it to zeros): free morph targets. */
  zeroVec3(count: number): number {
    this.accessors.push({ componentType: FLOAT, count, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] });
    return this.accessors.length - 1;
  }

  indices(data: Uint16Array): number {
    let max = 0;
    let min = data.length ? 65535 : 0;
    for (let i = 0; i < data.length; i++) {
      if (data[i] > max) max = data[i];
      if (data[i] < min) min = data[i];
    }
    this.accessors.push({
      bufferView: this.addView(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ELEMENT_ARRAY_BUFFER),
      componentType: UNSIGNED_SHORT,
      count: data.length,
      type: 'SCALAR',
      min: [min],
      max: [max],
    });
    return this.accessors.length - 1;
  }

  /** Packs `json` plus the accumulated buffer into a GLB; sets json.buffers/bufferViews/accessors. */
  pack(json: Record<string, unknown>): Uint8Array {
    const bin = new Uint8Array(this.byteLength);
    let offset = 0;
    for (const c of this.chunks) {
      bin.set(c, offset);
      offset += c.byteLength;
    }
    json.accessors = this.accessors;
    json.bufferViews = this.bufferViews;
    json.buffers = [{ byteLength: this.byteLength }];
    return packGlb(json, bin);
  }
}
