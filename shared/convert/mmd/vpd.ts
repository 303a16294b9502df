/**
 * VPD (Vocaloid Pose Data): a Shift_JIS text file holding one pose, bone by bone (position and
 * quaternion in MMD units and axes) and optionally morph weights. Read leniently (CRLF or LF,
 * `//` comments, full-width names), rejected with the line number when a value is malformed.
 */
import { fail, type ErrorDetail, type ErrorParams } from '../../errors';
import { decodeShiftJis } from './shiftJis';

export interface VpdBone {
  readonly name: string;
  readonly position: readonly [number, number, number];
  readonly rotation: readonly [number, number, number, number];
}

export interface VpdMorph {
  readonly name: string;
  readonly weight: number;
}

export interface VpdPose {
  readonly modelName: string;
  readonly bones: readonly VpdBone[];
  readonly morphs: readonly VpdMorph[];
}

const HEADER = 'Vocaloid Pose Data file';
/** A pose file is a few kilobytes; this bounds the work on garbage input. */
const MAX_VPD_BYTES = 16 * 1024 * 1024;

interface Line {
  readonly no: number;
  readonly text: string;
}

function bad(line: number | undefined, detail: ErrorDetail, params: ErrorParams = {}): never {
  fail('BAD_VPD', detail, line === undefined ? params : { line, ...params });
}

function numbers(line: Line, count: number, _what: string): number[] {
  const body = line.text.replace(/;\s*$/, '');
  if (!line.text.endsWith(';')) bad(line.no, 'vpd.semicolon', { text: line.text.slice(0, 60) });
  const parts = body.split(',').map((s) => s.trim());
  if (parts.length !== count) bad(line.no, 'vpd.numberCount', { count, found: parts.length });
  return parts.map((p) => {
    const v = p === '' ? NaN : Number(p);
    if (!Number.isFinite(v) || Math.abs(v) > 1e5) bad(line.no, 'vpd.notNumber', { token: p.slice(0, 30) });
    return v;
  });
}

export function parseVpd(bytes: Uint8Array): VpdPose {
  if (bytes.length > MAX_VPD_BYTES) bad(undefined, 'vpd.tooLarge', { bytes: bytes.length, max: MAX_VPD_BYTES });
  let text = decodeShiftJis(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines: Line[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const cut = raw.indexOf('//');
    const t = (cut >= 0 ? raw.slice(0, cut) : raw).replace(/^[\s\u3000]+|[\s\u3000]+$/g, '');
    if (t) lines.push({ no: i + 1, text: t });
  });
  if (!lines.length || lines[0].text !== HEADER) bad(lines[0]?.no ?? 1, 'vpd.header', { header: HEADER });
  let k = 1;
  const next = (_what: string): Line => {
    if (k >= lines.length) bad(lines[lines.length - 1].no, 'vpd.endsEarly');
    return lines[k++];
  };
  const modelLine = next('the model file name');
  if (!modelLine.text.endsWith(';')) bad(modelLine.no, 'vpd.modelName');
  const modelName = modelLine.text.slice(0, -1).replace(/\.osm$/i, '').trim();
  const countLine = next('the bone count');
  const declared = numbers(countLine, 1, 'bone count')[0];
  if (!Number.isInteger(declared) || declared < 0) bad(countLine.no, 'vpd.boneCount', { value: String(declared) });

  const bones: VpdBone[] = [];
  const morphs: VpdMorph[] = [];
  while (k < lines.length) {
    const open = lines[k++];
    const m = /^(Bone|Morph)\d*\s*\{\s*(.*)$/.exec(open.text);
    if (!m) bad(open.no, 'vpd.blockExpected', { text: open.text.slice(0, 60) });
    let name = m[2].trim();
    if (!name) name = next('a bone name').text;
    if (m[1] === 'Bone') {
      const p = numbers(next('a position'), 3, 'position x,y,z');
      const qLine = next('a rotation');
      const q = numbers(qLine, 4, 'quaternion x,y,z,w');
      const len = Math.hypot(q[0], q[1], q[2], q[3]);
      if (len < 1e-6) bad(qLine.no, 'vpd.zeroRotation', { bone: name });
      bones.push({ name, position: [p[0], p[1], p[2]], rotation: [q[0] / len, q[1] / len, q[2] / len, q[3] / len] });
    } else {
      const w = numbers(next('a morph weight'), 1, 'morph weight')[0];
      morphs.push({ name, weight: w });
    }
    const close = next('"}"');
    if (close.text !== '}') bad(close.no, 'vpd.closeExpected', { name, text: close.text.slice(0, 60) });
  }
  if (bones.length !== declared && bones.length + morphs.length !== declared) {
    // MMD itself trusts the blocks, not the count; so do we, but a mismatch hints at a cut-off file.
    if (bones.length < declared) bad(undefined, 'vpd.truncated', { declared, count: bones.length });
  }
  return { modelName, bones, morphs };
}
