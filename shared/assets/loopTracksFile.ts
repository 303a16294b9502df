/**
 * A baked loop's keys (loopBaker.ts LoopTracks) as one file, so the renderer's build can make the
 * start-up walk cycle ahead and the page only builds the Motion from them (issue 30: its 67 poses
 * were 30 ms of the page's main thread before the first frame). Float32 values are stored as they
 * are, so the Motion built from a read file is the one built from the baked tracks, bit for bit.
 *
 * Layout: "VLT1", the header's byte length (u32 LE), the header (UTF-8 JSON: generator, key count,
 * bone names, expression names), zero bytes to a multiple of 4, then Float32 LE: the times, each
 * bone's rotations (4 per key), the hips' positions (3 per key), each expression's weights.
 */
import { MotionError } from '../errors';
import type { HumanBoneName } from '../vrm/humanBones';
import type { KeyTrack } from '../vrma/buildMotion';
import type { LoopTracks } from './loopBaker';

const MAGIC = 0x31544c56; // "VLT1"

interface Header {
  readonly generator: string;
  readonly keys: number;
  readonly bones: readonly HumanBoneName[];
  readonly expressions: readonly string[];
}

/** The tracks as a file; every track must be on one times array (as bakeLoopTracks makes them). */
export function writeLoopTracks(tracks: LoopTracks): Uint8Array {
  const times = tracks.hipsTranslation.times;
  const bones = Object.keys(tracks.rotations) as HumanBoneName[];
  const expressions = Object.keys(tracks.expressions);
  const all: KeyTrack[] = [...bones.map((b) => tracks.rotations[b]!), tracks.hipsTranslation, ...expressions.map((e) => tracks.expressions[e])];
  if (all.some((t) => t.times !== times)) throw new MotionError('BAD_PARAMETER', 'loopTracks.times');
  const header = new TextEncoder().encode(JSON.stringify({ generator: tracks.generator, keys: times.length, bones, expressions } satisfies Header));
  const start = 8 + Math.ceil(header.length / 4) * 4;
  const floats = times.length + all.reduce((n, t) => n + t.values.length, 0);
  const out = new Uint8Array(start + floats * 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, header.length, true);
  out.set(header, 8);
  let at = start;
  for (const block of [times, ...all.map((t) => t.values)]) {
    for (let i = 0; i < block.length; i++, at += 4) view.setFloat32(at, block[i], true);
  }
  return out;
}

/** Reads writeLoopTracks' file; a file that is not one, or is cut short, is a MotionError. */
export function readLoopTracks(bytes: Uint8Array): LoopTracks {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 || view.getUint32(0, true) !== MAGIC) throw new MotionError('BAD_DATA', 'loopTracks.notFile');
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.length) throw new MotionError('BAD_DATA', 'loopTracks.truncated');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Header;
  } catch {
    throw new MotionError('BAD_DATA', 'loopTracks.notFile');
  }
  const n = header.keys;
  let at = 8 + Math.ceil(headerLength / 4) * 4;
  const next = (count: number): Float32Array => {
    if (at + count * 4 > bytes.length) throw new MotionError('BAD_DATA', 'loopTracks.truncated');
    const block = new Float32Array(count);
    for (let i = 0; i < count; i++, at += 4) block[i] = view.getFloat32(at, true);
    return block;
  };
  const times = next(n);
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const bone of header.bones) rotations[bone] = { times, values: next(n * 4) };
  const hipsTranslation = { times, values: next(n * 3) };
  const expressions: Record<string, KeyTrack> = {};
  for (const name of header.expressions) expressions[name] = { times, values: next(n) };
  if (at !== bytes.length) throw new MotionError('BAD_DATA', 'loopTracks.trailing');
  return { rotations, hipsTranslation, expressions, generator: header.generator };
}
