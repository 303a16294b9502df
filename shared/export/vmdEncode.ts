/**
 * The VMD file layout (Vocaloid Motion Data 0002): header, model name, bone keys (111 bytes each),
 * morph keys (23), empty camera, light and self-shadow sections, and the IK on/off section. Keys are
 * given already chosen; this only lays the bytes out.
 */
import { nameField } from './shiftJisEncode';

export interface VmdBoneKeys {
  readonly name: string;
  /** Whole MMD frames (30 fps), increasing. */
  readonly frames: Uint32Array;
  /** 3 per key, MMD units and axes. */
  readonly positions: Float32Array;
  /** 4 per key (x, y, z, w), MMD axes. */
  readonly rotations: Float32Array;
}

export interface VmdMorphKeys {
  readonly name: string;
  readonly frames: Uint32Array;
  readonly weights: Float32Array;
}

export interface VmdIkSwitch {
  readonly frame: number;
  readonly enabled: readonly { readonly name: string; readonly on: boolean }[];
}

export interface VmdContent {
  readonly modelName: string;
  readonly bones: readonly VmdBoneKeys[];
  readonly morphs: readonly VmdMorphKeys[];
  readonly ik: readonly VmdIkSwitch[];
}

const HEADER = 'Vocaloid Motion Data 0002';
/** The linear curve (x1 = y1, x2 = y2) MMD writes for an uninterpolated key. */
const LINEAR = [20, 20, 107, 107] as const;

/** The 64 interpolation bytes of a linear key, laid out as MMD does (row 1, then shifted copies). */
const INTERPOLATION: Uint8Array = (() => {
  const ip = new Uint8Array(64);
  const [x1, y1, x2, y2] = LINEAR;
  for (let c = 0; c < 4; c++) {
    ip[c] = x1;
    ip[4 + c] = y1;
    ip[8 + c] = x2;
    ip[12 + c] = y2;
  }
  for (let row = 1; row < 4; row++) ip.set(ip.subarray(row, 16), row * 16);
  return ip;
})();

export interface EncodedVmd {
  readonly bytes: Uint8Array;
  /** Names longer than their field (15 bytes for bones and morphs, 20 for IK bones), cut to fit. */
  readonly cutNames: readonly string[];
}

export function encodeVmd(content: VmdContent): EncodedVmd {
  const boneKeys = content.bones.reduce((s, b) => s + b.frames.length, 0);
  const morphKeys = content.morphs.reduce((s, m) => s + m.frames.length, 0);
  const ikBytes = content.ik.reduce((s, k) => s + 9 + 21 * k.enabled.length, 0);
  const size = 30 + 20 + 4 + boneKeys * 111 + 4 + morphKeys * 23 + 12 + 4 + ikBytes;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const cut = new Set<string>();
  const field = (name: string, n: number, at: number) => {
    const f = nameField(name, n);
    if (f.cut) cut.add(name);
    out.set(f.bytes, at);
  };
  for (let i = 0; i < HEADER.length; i++) out[i] = HEADER.charCodeAt(i);
  field(content.modelName, 20, 30);
  let o = 50;
  view.setUint32(o, boneKeys, true);
  o += 4;
  for (const b of content.bones) {
    const name = nameField(b.name, 15);
    if (name.cut) cut.add(b.name);
    for (let k = 0; k < b.frames.length; k++) {
      out.set(name.bytes, o);
      view.setUint32(o + 15, b.frames[k], true);
      for (let c = 0; c < 3; c++) view.setFloat32(o + 19 + c * 4, b.positions[k * 3 + c], true);
      for (let c = 0; c < 4; c++) view.setFloat32(o + 31 + c * 4, b.rotations[k * 4 + c], true);
      out.set(INTERPOLATION, o + 47);
      o += 111;
    }
  }
  view.setUint32(o, morphKeys, true);
  o += 4;
  for (const m of content.morphs) {
    const name = nameField(m.name, 15);
    if (name.cut) cut.add(m.name);
    for (let k = 0; k < m.frames.length; k++) {
      out.set(name.bytes, o);
      view.setUint32(o + 15, m.frames[k], true);
      view.setFloat32(o + 19, m.weights[k], true);
      o += 23;
    }
  }
  o += 12; // no camera, light or self-shadow keys
  view.setUint32(o, content.ik.length, true);
  o += 4;
  for (const k of content.ik) {
    view.setUint32(o, k.frame, true);
    out[o + 4] = 1; // model shown
    view.setUint32(o + 5, k.enabled.length, true);
    o += 9;
    for (const e of k.enabled) {
      field(e.name, 20, o);
      out[o + 20] = e.on ? 1 : 0;
      o += 21;
    }
  }
  return { bytes: out, cutNames: [...cut] };
}
