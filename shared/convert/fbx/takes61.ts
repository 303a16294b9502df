/**
 * FBX 6.x animation: `Takes: { Take: "name" { LocalTime: start, stop  Model: "Model::X" { Channel:
 * "Transform" { Channel: "T" { Channel: "X" { Default, KeyVer, KeyCount, Key: t,v,mode,... } ... } } } } }`.
 * Each Take becomes a stack of one layer, like a 7.x AnimationStack, with the same curve nodes
 * (T/R/S on "Lcl Translation"/"Lcl Rotation"/"Lcl Scaling"), so everything after the scene reader
 * is shared. 7.x files also carry a Takes section, but only as a list of names and times: it is read
 * only for files older than 7000 (as the FBX SDK and ufbx do).
 *
 * The Key list is a flat run per key: time (ticks), value, mode, then what the mode needs (the layout
 * as ufbx documents it, its `ufbxi_read_take_anim_channel`):
 *   L                 linear
 *   C[,n|p]           constant (KeyVer >= 4004 adds one mark: n = take the next key's value)
 *   U,s|b,r,l[,w...]  cubic with explicit slopes (right of this key, left of the next; per second)
 *   U,a|p|q|t|d,...   cubic with automatic slopes (their extra numbers are skipped)
 * then, for cubic keys, weight marks: n (default), a (two weights), l / r (one), c (default).
 * Weights are not modelled (the 1/3 default makes the Bezier the Hermite the sampler evaluates);
 * automatic slopes are the clamped secant through the neighbours. The converter samples every take
 * onto its frame grid, so the output keys are linear whatever the source's interpolation.
 */
import { warning, type MotionWarning } from '../../warnings';
import { fail } from '../../errors';
import { child, childrenNamed, numberOf, stringOf, type FbxDocument, type FbxNode, type FbxValue } from './node';
import { TICKS_PER_SECOND as TICKS, type FbxCurve, type FbxCurveNode, type FbxStack } from './sceneTypes';

const PROPERTY: Readonly<Record<string, string>> = { T: 'Lcl Translation', R: 'Lcl Rotation', S: 'Lcl Scaling' };
const AXES = ['X', 'Y', 'Z'] as const;
/** Default slope weight of FBX cubic keys (a third of the interval). */
const WEIGHT = 1 / 3;

/** A mode mark in the key list: a bare word in ASCII, a one-byte char property in binary. */
function mark(v: FbxValue | undefined): string | undefined {
  return typeof v === 'string' && v.length === 1 ? v : undefined;
}

/** The clamped automatic slope at a key (the secant through its neighbours, no overshoot within either interval). */
function autoSlope(tp: number, vp: number, t: number, v: number, tn: number, vn: number): number {
  if (!(tn > tp)) return 0;
  const s = (vn - vp) / (tn - tp);
  if (s === 0) return 0;
  const dir = Math.sign(s);
  const maxLeft = t > tp ? (dir * (v - vp)) / (WEIGHT * (t - tp)) : Infinity;
  const maxRight = tn > t ? (dir * (vn - v)) / (WEIGHT * (tn - t)) : Infinity;
  const bound = Math.max(0, Math.min(maxLeft, maxRight));
  return dir * Math.min(Math.abs(s), Number.isNaN(bound) ? 0 : bound);
}

export function readChannelCurve(node: FbxNode, id: string, path: string, docVersion: number): { curve?: FbxCurve; defaultValue?: number } {
  const defaultValue = numberOf(child(node, 'Default')?.props[0]);
  const keyNode = child(node, 'Key');
  if (!keyNode) return { defaultValue };
  const keyVerRaw = numberOf(child(node, 'KeyVer')?.props[0]);
  const keyVer = keyVerRaw && keyVerRaw > 0 ? keyVerRaw : docVersion < 5000 ? 4003 : docVersion < 6000 ? 4004 : 4005;
  const data = keyNode.props;
  const declared = numberOf(child(node, 'KeyCount')?.props[0]);
  // Each key takes at least three values: the count cannot exceed what the list holds.
  const most = Math.floor(data.length / 3);
  if (declared !== undefined && !(Number.isInteger(declared) && declared >= 0 && declared <= most)) {
    fail('BAD_FBX', 'fbx.takeKeyCount', { curve: path, declared: String(declared), most });
  }
  const times: number[] = [];
  const values: number[] = [];
  const modes: number[] = [];
  /** Explicit slopes (right of key i, left of key i+1), NaN where automatic. */
  const right: number[] = [];
  const nextLeft: number[] = [];
  let p = 0;
  const num = (_what: string): number => {
    const v = numberOf(data[p]);
    if (v === undefined || !Number.isFinite(v)) fail('BAD_FBX', 'fbx.takeKeyNumber', { curve: path, key: times.length, index: p });
    p++;
    return v;
  };
  const chr = (_what: string): string => {
    const c = mark(data[p]);
    if (c === undefined) fail('BAD_FBX', 'fbx.takeKeyLetter', { curve: path, key: times.length, index: p });
    p++;
    return c;
  };
  while (p < data.length && (declared === undefined || times.length < declared)) {
    const t = num('the time');
    const v = num('the value');
    if (times.length && t < times[times.length - 1]) fail('BAD_FBX', 'fbx.curveBackwards', { curve: path, key: times.length });
    const mode = chr('the interpolation');
    let interp = 1;
    let r = NaN, l = NaN;
    if (mode === 'L') interp = 1;
    else if (mode === 'C') {
      interp = 0;
      if (keyVer >= 4004 && mark(data[p]) !== undefined) interp = chr('the constant mark') === 'n' ? 3 : 0;
    } else if (mode === 'U') {
      interp = 2;
      const slope = chr('the slope mode');
      let weights = 1;
      if (slope === 's' || slope === 'b') {
        r = num('the right slope');
        l = num("the next key's left slope");
        weights = keyVer === 4003 ? 0 : 1;
      } else if (slope === 'a') weights = keyVer <= 4004 ? 0 : 1;
      else if (slope === 'p' || slope === 'q') {
        num('a slope parameter');
        num('a slope parameter');
        weights = keyVer <= 4004 ? 1 : 2;
      } else if (slope === 't') {
        for (let k = 0; k < 3; k++) num('a TCB parameter');
        weights = 0;
      } else if (slope === 'd') num('a slope parameter');
      else fail('BAD_FBX', 'fbx.takeKeyMode', { curve: path, key: times.length, mode: slope });
      for (let w = 0; w < weights && p < data.length && mark(data[p]) !== undefined; w++) {
        const wm = chr('the weight mode');
        if (wm === 'a') {
          num('a weight');
          num('a weight');
        } else if (wm === 'l' || wm === 'r') num('a weight');
        else if (wm !== 'n' && wm !== 'c') fail('BAD_FBX', 'fbx.takeKeyMode', { curve: path, key: times.length, mode: wm });
      }
    } else fail('BAD_FBX', 'fbx.takeKeyMode', { curve: path, key: times.length, mode });
    times.push(t);
    values.push(v);
    modes.push(interp);
    right.push(r);
    nextLeft.push(l);
  }
  if (declared !== undefined && times.length !== declared) fail('BAD_FBX', 'fbx.takeKeyCount', { curve: path, declared: String(declared), most: times.length });
  if (p !== data.length) fail('BAD_FBX', 'fbx.takeKeyLeft', { curve: path, count: data.length - p });
  const n = times.length;
  const slopes = new Float64Array(n * 2);
  const perSecond = (i: number, j: number) => (values[j] - values[i]) / ((times[j] - times[i]) / TICKS);
  for (let i = 0; i + 1 < n; i++) {
    if (modes[i] !== 2) continue;
    // Automatic slopes: the first key's is flat, the others the clamped secant (per second).
    const auto = (k: number) => k === 0 || k === n - 1 ? 0 : autoSlope(times[k - 1] / TICKS, values[k - 1], times[k] / TICKS, values[k], times[k + 1] / TICKS, values[k + 1]);
    slopes[i * 2] = Number.isNaN(right[i]) ? auto(i) : right[i];
    // The next key's left slope: given on this key, or (after a linear key) the secant, or automatic.
    slopes[i * 2 + 1] = !Number.isNaN(nextLeft[i]) ? nextLeft[i] : modes[i + 1] === 1 && times[i + 1] > times[i] ? perSecond(i, i + 1) : auto(i + 1);
  }
  const curve: FbxCurve = {
    id,
    times: Float64Array.from(times),
    values: Float64Array.from(values),
    interpolation: Uint8Array.from(modes),
    slopes,
    defaultValue: defaultValue ?? (n ? values[0] : 0),
  };
  return { curve, defaultValue };
}

/** The Takes of an FBX 6.x document as stacks; `models` says which "Model::X" names exist. */
export function readTakes(doc: FbxDocument, models: ReadonlySet<string>, warnings: MotionWarning[]): FbxStack[] {
  if (doc.version >= 7000) return [];
  const takes = doc.nodes.find((n) => n.name === 'Takes');
  const stacks: FbxStack[] = [];
  for (const take of childrenNamed(takes, 'Take')) {
    const name = stringOf(take.props[0]) ?? `Take ${stacks.length + 1}`;
    const curveNodes: FbxCurveNode[] = [];
    let minKey = Infinity, maxKey = -Infinity;
    const unknown: string[] = [];
    for (const m of childrenNamed(take, 'Model')) {
      const target = stringOf(m.props[0]);
      if (target === undefined) continue;
      if (!models.has(target)) {
        unknown.push(target);
        continue;
      }
      const transform = childrenNamed(m, 'Channel').find((c) => stringOf(c.props[0]) === 'Transform');
      for (const trs of childrenNamed(transform, 'Channel')) {
        const letter = stringOf(trs.props[0]) ?? '';
        const property = PROPERTY[letter];
        if (!property) continue;
        const curves = new Map<string, FbxCurve>();
        const defaults = new Map<string, number>();
        for (const axisNode of childrenNamed(trs, 'Channel')) {
          const axis = stringOf(axisNode.props[0]) ?? '';
          if (!(AXES as readonly string[]).includes(axis)) continue;
          const id = `${name}/${target}/${letter}/${axis}`;
          const { curve, defaultValue } = readChannelCurve(axisNode, id, `take "${name}" ${target} ${letter}.${axis}`, doc.version);
          if (defaultValue !== undefined) defaults.set(axis, defaultValue);
          if (!curve) continue;
          curves.set(axis, curve);
          if (curve.times.length) {
            minKey = Math.min(minKey, curve.times[0]);
            maxKey = Math.max(maxKey, curve.times[curve.times.length - 1]);
          }
        }
        curveNodes.push({ id: `${name}/${target}/${letter}`, channel: letter, target, property, curves, defaults });
      }
    }
    if (unknown.length)
      warnings.push(
        warning(`take "${name}" animates ${unknown.length} model(s) the file does not define: ${unknown.slice(0, 8).join(', ')}`, 'fbx.takeUnknownModels', {
          take: name,
          count: unknown.length,
          models: unknown.slice(0, 8).join(', '),
        }),
      );
    const local = child(take, 'LocalTime')?.props.map(numberOf);
    let start = local && Number.isFinite(local[0]) ? local[0]! : Number.isFinite(minKey) ? minKey : 0;
    let stop = local && Number.isFinite(local[1]) ? local[1]! : Number.isFinite(maxKey) ? maxKey : start;
    if (!(stop >= start)) [start, stop] = [Math.min(start, stop), Math.max(start, stop)];
    const layer = { id: `take:${name}/layer`, name: 'BaseLayer', weight: 1, blend: 'additive' as const, rotationByChannel: false, scaleAdditive: false, mute: false, solo: false, curveNodes };
    stacks.push({ id: `take:${name}`, name, start, stop, curveNodes, layers: [layer], layerCount: 1 });
  }
  return stacks;
}
