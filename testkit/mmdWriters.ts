/**
 * Writers of MMD files for tests: VMD motions and VPD poses with hand-made content (any key, curve or
 * IK switch), in Shift_JIS as MMD writes them. The product's exporter (shared/export/vmdWriter.ts)
 * writes motions; these write the odd inputs the readers are tested on.
 */
import type { VpdPose } from '../shared/convert/mmd/vpd';
import { encodeShiftJis } from '../shared/export/shiftJisEncode';

export { encodeShiftJis };

const VPD_HEADER = 'Vocaloid Pose Data file';

function num(v: number): string {
  // Enough digits that a written pose reads back to the same float32 values.
  return Number.isInteger(v) ? v.toFixed(1) : v.toPrecision(9).replace(/(\.\d*?)0+$/, '$1');
}

/** A VPD file for `pose`, as MMD writes them (Shift_JIS, CRLF). */
export function writeVpd(pose: VpdPose): Uint8Array {
  const out: string[] = [VPD_HEADER, '', `${pose.modelName || 'model'}.osm;\t\t// 親ファイル名`, `${pose.bones.length};\t\t\t\t// 総ポーズボーン数`, ''];
  pose.bones.forEach((b, i) => {
    out.push(`Bone${i}{${b.name}`);
    out.push(`  ${b.position.map(num).join(',')};\t\t\t\t// trans x,y,z`);
    out.push(`  ${b.rotation.map(num).join(',')};\t\t// Quaternion x,y,z,w`);
    out.push('}', '');
  });
  pose.morphs.forEach((m, i) => {
    out.push(`Morph${i}{${m.name}`, `  ${num(m.weight)};\t\t\t\t// weight`, '}', '');
  });
  return encodeShiftJis(out.join('\r\n'));
}

export interface VmdWriteBoneKey {
  readonly name: string;
  readonly frame: number;
  readonly position?: readonly [number, number, number];
  readonly rotation?: readonly [number, number, number, number];
  /** x1, y1, x2, y2 (0..127) used for all four channels; default linear (20, 20, 107, 107). */
  readonly curve?: readonly [number, number, number, number];
}

export interface VmdWriteInput {
  readonly modelName?: string;
  readonly bones?: readonly VmdWriteBoneKey[];
  readonly morphs?: readonly { name: string; frame: number; weight: number }[];
  readonly ik?: readonly { frame: number; enabled: Readonly<Record<string, boolean>> }[];
}

function nameField(name: string, size: number): Uint8Array {
  const field = new Uint8Array(size);
  field.set(encodeShiftJis(name).subarray(0, size));
  return field;
}

export function writeVmd(input: VmdWriteInput): Uint8Array {
  const bones = input.bones ?? [];
  const morphs = input.morphs ?? [];
  const ik = input.ik ?? [];
  const ikBytes = ik.reduce((s, k) => s + 9 + 21 * Object.keys(k.enabled).length, 0);
  const size = 30 + 20 + 4 + bones.length * 111 + 4 + morphs.length * 23 + 4 + 4 + 4 + 4 + ikBytes;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('Vocaloid Motion Data 0002'), 0);
  out.set(nameField(input.modelName ?? 'model', 20), 30);
  let o = 50;
  view.setUint32(o, bones.length, true);
  o += 4;
  for (const b of bones) {
    out.set(nameField(b.name, 15), o);
    view.setUint32(o + 15, b.frame, true);
    const p = b.position ?? [0, 0, 0];
    const q = b.rotation ?? [0, 0, 0, 1];
    p.forEach((v, i) => view.setFloat32(o + 19 + i * 4, v, true));
    q.forEach((v, i) => view.setFloat32(o + 31 + i * 4, v, true));
    const [x1, y1, x2, y2] = b.curve ?? [20, 20, 107, 107];
    const ip = o + 47;
    for (let c = 0; c < 4; c++) {
      out[ip + c] = x1;
      out[ip + 4 + c] = y1;
      out[ip + 8 + c] = x2;
      out[ip + 12 + c] = y2;
    }
    // MMD repeats the first row shifted by one byte in rows 2-4; readers only use row 1.
    for (let row = 1; row < 4; row++) out.set(out.subarray(ip + row, ip + 16), ip + row * 16);
    o += 111;
  }
  view.setUint32(o, morphs.length, true);
  o += 4;
  for (const m of morphs) {
    out.set(nameField(m.name, 15), o);
    view.setUint32(o + 15, m.frame, true);
    view.setFloat32(o + 19, m.weight, true);
    o += 23;
  }
  o += 12; // no camera, light or self-shadow keys
  view.setUint32(o, ik.length, true);
  o += 4;
  for (const k of ik) {
    view.setUint32(o, k.frame, true);
    out[o + 4] = 1;
    const entries = Object.entries(k.enabled);
    view.setUint32(o + 5, entries.length, true);
    o += 9;
    for (const [name, on] of entries) {
      out.set(nameField(name, 20), o);
      out[o + 20] = on ? 1 : 0;
      o += 21;
    }
  }
  return out;
}
