/**
 * Tangent handles of Bézier keys (the curve view's handles, as Blender's graph editor): the slope of
 * the curve the curve view draws at a key, and the edit that sets it.
 *
 * The curve view shows a value in the units people read (moveKeyValues.ts): a bone's rotation as
 * continuous XYZ Euler angles of its normalized rotation, the hips in world metres, other channels
 * in file units. A CUBIC key stores glTF CUBICSPLINE tangents on the file's own components (a
 * quaternion's four, per second). A handle is the displayed curve's slope at the key: the tangent
 * pushed through the derivative (Jacobian J) of "stored value -> displayed value" at the key. Setting
 * a handle's slope solves J·Δm = Δe for the smallest change of the stored tangent; for a rotation Δm
 * lies in the quaternion's tangent plane (a change along the key's own axis would only rescale the
 * quaternion, which playback normalizes away), so the curve that plays leaves the key with exactly
 * the slope the handle shows, and the key's other two angle slopes stay as they were. For the hips
 * and other translations J is the (linear) world map itself and the handle is exact everywhere.
 *
 * Aligned (the default, as Blender's): the key's in and out slope of that component become the same
 * (the two handles on one line through the key); Free: only the dragged side changes. A handle of a
 * segment that is not Bézier makes it Bézier first (as Blender does when a handle is moved), with the
 * tangents setKinds gives. Values, times and every other track stay bit for bit; the input is never
 * mutated.
 */
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { CUBIC, kindAt, kindsOf, setKinds } from '../motion/interpolation';
import { compatibleEuler, eulerOfFlat } from '../math/euler';
import { sandwichAll, conj } from '../math/quat';
import { cross3, dot3 } from '../math/vec3';
import { hipsToWorld } from '../vrma/normalizedTracks';
import { requireFinite } from './params';
import { selectedChannel } from './keySelection';

export type HandleSide = 'in' | 'out';

/** One handle: a key of a channel and which side of it. */
export interface KeyHandle {
  readonly node: number;
  readonly path: ChannelPath;
  readonly key: number;
  readonly side: HandleSide;
}

/** Step of the central differences (on unit quaternions or metres): J to about 1e-10 relative. */
const H = 1e-5;
/** cos(Y) under which a key counts as at gimbal lock (Y within 0.006° of ±90°). */
const GIMBAL_COS = 1e-4;

/** "Stored value -> displayed value" of a channel (3 numbers, edit units), the rotation's angles kept near `near`. */
function displayMap(motion: Motion, channel: Channel, near: ArrayLike<number>): (v: ArrayLike<number>, out: Float64Array) => void {
  const bone = motion.humanoid.nodeToBone.get(channel.node);
  if (channel.path === 'rotation') {
    const rest = bone !== undefined ? motion.rest.bones[bone] : undefined;
    const tmp = new Float64Array(4);
    return (v, out) => {
      const q = rest ? sandwichAll(Float64Array.from(v), rest.parentWorld, conj(rest.world), tmp) : Float64Array.from(v);
      const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
      for (let c = 0; c < 4; c++) q[c] /= n;
      eulerOfFlat(q, 0, out, 0);
      compatibleEuler(out, 0, near, 0);
    };
  }
  if (channel.path === 'translation' && bone === 'hips') return (v, out) => out.set(hipsToWorld(Array.from(v).slice(0, 3), motion));
  return (v, out) => {
    for (let c = 0; c < 3; c++) out[c] = v[c];
  };
}

/** Key k's displayed value near `near` (the view's continuous angles), or its own decomposition without it. */
function displayedKey(motion: Motion, channel: Channel, k: number, near?: ArrayLike<number>): Float64Array {
  const size = componentsOf(channel.path);
  const out = new Float64Array(3);
  displayMap(motion, channel, near ?? [0, 0, 0])(channel.values.subarray(k * size, (k + 1) * size), out);
  return out;
}

/** J (3 rows × size columns, row-major) of the display map at key k's stored value. */
function jacobian(motion: Motion, channel: Channel, k: number, near: ArrayLike<number>): Float64Array {
  const size = componentsOf(channel.path);
  const f = displayMap(motion, channel, near);
  const v = Float64Array.from(channel.values.subarray(k * size, (k + 1) * size));
  const J = new Float64Array(3 * size);
  const a = new Float64Array(3);
  const b = new Float64Array(3);
  for (let j = 0; j < size; j++) {
    const x = v[j];
    v[j] = x + H;
    f(v, a);
    v[j] = x - H;
    f(v, b);
    v[j] = x;
    for (let r = 0; r < 3; r++) J[r * size + j] = (a[r] - b[r]) / (2 * H);
  }
  return J;
}

function apply(J: Float64Array, size: number, m: ArrayLike<number>, o: number): Float64Array {
  const out = new Float64Array(3);
  for (let r = 0; r < 3; r++) for (let j = 0; j < size; j++) out[r] += J[r * size + j] * m[o + j];
  return out;
}

/**
 * The channel with tangents: with `seg`, that segment made Bézier (setKinds: its tangents kept, or
 * automatic ones); without, for reading, the tangents a Bézier key would start with if it has none.
 */
function withTangents(channel: Channel, seg?: number): Channel {
  if (seg !== undefined) return kindAt(channel, seg) === CUBIC ? channel : setKinds(channel, [seg], CUBIC);
  if (kindsOf(channel)?.includes(CUBIC)) return channel;
  const probe = setKinds(channel, [0], CUBIC);
  return { ...channel, values: probe.values, inTangents: probe.inTangents, outTangents: probe.outTangents };
}

/**
 * The displayed curve's slope (edit units per second: radians, metres, file units) on each side of
 * key k, 3 numbers each: what the handles show. `near`: the view's continuous angles at the key (radians).
 */
export function handleSlopes(motion: Motion, channel: Channel, k: number, near?: ArrayLike<number>): { in: Float64Array; out: Float64Array } {
  const c = withTangents(channel);
  const size = componentsOf(c.path);
  const J = jacobian(motion, c, k, displayedKey(motion, c, k, near));
  return { in: apply(J, size, c.inTangents!, k * size), out: apply(J, size, c.outTangents!, k * size) };
}

/** The smallest stored-tangent change Δm with J·Δm = Δe (a rotation's in its tangent plane). */
function tangentChange(J: Float64Array, size: number, v: ArrayLike<number>, de: ArrayLike<number>): Float64Array {
  // Columns of the 3×3 system: J itself, or J times an orthonormal basis of the plane orthogonal to v.
  const basis: number[][] = [];
  if (size === 4) {
    const n = Math.hypot(v[0], v[1], v[2], v[3]) || 1;
    const u = [v[0] / n, v[1] / n, v[2] / n, v[3] / n];
    for (let e = 0; e < 4 && basis.length < 3; e++) {
      const w = [0, 0, 0, 0];
      w[e] = 1;
      for (const b of [u, ...basis]) {
        const d = b[0] * w[0] + b[1] * w[1] + b[2] * w[2] + b[3] * w[3];
        for (let i = 0; i < 4; i++) w[i] -= d * b[i];
      }
      const len = Math.hypot(w[0], w[1], w[2], w[3]);
      if (len > 0.3) basis.push(w.map((x) => x / len));
    }
  } else for (let e = 0; e < 3; e++) basis.push([0, 0, 0].map((_, i) => (i === e ? 1 : 0)));
  const cols = basis.map((b) => Array.from(apply(J, size, b, 0)) as [number, number, number]);
  // Cramer's rule.
  const det = dot3(cols[0], cross3(cols[1], cols[2]));
  if (!(Math.abs(det) > 1e-9)) fail('BAD_PARAMETER', 'keys.tangentSingular');
  const d = [de[0], de[1], de[2]] as const;
  const x = [dot3(d, cross3(cols[1], cols[2])) / det, dot3(cols[0], cross3(d, cols[2])) / det, dot3(cols[0], cross3(cols[1], d)) / det];
  const out = new Float64Array(size);
  for (let b = 0; b < 3; b++) for (let i = 0; i < size; i++) out[i] += x[b] * basis[b][i];
  return out;
}

/**
 * Sets the displayed slope of component `component` (0..2) of a handle to `slope` (edit units per
 * second), Aligned unless `free`. `near`: the view's continuous angles at the key (radians), so a
 * rotation's slopes are the curve's as drawn; without it the key's own decomposition is used.
 */
export function setHandleSlope(motion: Motion, handle: KeyHandle, component: number, slope: number, free = false, near?: ArrayLike<number>): Motion {
  requireFinite('handle slope', slope);
  if (!Number.isInteger(component) || component < 0 || component > 2) fail('BAD_PARAMETER', 'keys.component', { component: String(component) });
  const { channel, index } = selectedChannel(motion, { node: handle.node, path: handle.path, keys: [handle.key] });
  const k = handle.key;
  const n = channel.times.length;
  if ((handle.side === 'out' && k >= n - 1) || (handle.side === 'in' && k <= 0)) fail('BAD_PARAMETER', 'keys.noHandle', { key: k, side: handle.side, count: n });
  const c = withTangents(channel, handle.side === 'out' ? k : k - 1);
  const size = componentsOf(c.path);
  const v = c.values.subarray(k * size, (k + 1) * size);
  const ref = displayedKey(motion, c, k, near);
  // At gimbal lock X and Z turn about one axis: their slopes are not separate numbers to set.
  if (c.path === 'rotation' && Math.abs(Math.cos(ref[1])) < GIMBAL_COS) fail('BAD_PARAMETER', 'keys.tangentSingular');
  const J = jacobian(motion, c, k, ref);
  const inT = c.inTangents!.slice();
  const outT = c.outTangents!.slice();
  const sides: [HandleSide, Float32Array][] = [['in', inT], ['out', outT]];
  for (const [side, tangents] of sides) {
    if (free && side !== handle.side) continue;
    const now = apply(J, size, tangents, k * size);
    const de = [0, 0, 0];
    de[component] = slope - now[component];
    if (de[component] === 0) continue;
    const dm = tangentChange(J, size, v, de);
    for (let i = 0; i < size; i++) tangents[k * size + i] += dm[i];
  }
  const next: Channel = { ...c, inTangents: inT, outTangents: outT };
  return withChannels(motion, motion.channels.map((ch, i) => (i === index ? next : ch)));
}
