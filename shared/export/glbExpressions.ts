/**
 * Expressions as glTF morph weights: which morph targets of which mesh nodes each of an avatar's
 * expressions drives (VRMC_vrm 1.0 morphTargetBinds, VRM 0.x blendShapeGroups binds under their
 * VRM 1.0 names, as three-vrm reads them), and the weights channel of every bound node, frame by frame:
 * a bound target's influence is the sum of weight × bind weight over the expressions (binary ones
 * rounded at 0.5), unclamped, as three-vrm's expression manager applies them. (Its overrides, one
 * expression muting blink, gaze or mouth, are not applied.)
 */
import type { PoseFrames } from './frames';

interface Bind {
  readonly node: number;
  readonly index: number;
  readonly weight: number;
}

export interface ExpressionBinds {
  readonly binds: ReadonlyMap<string, { readonly binary: boolean; readonly binds: readonly Bind[] }>;
}

/** VRM 0.x preset names -> VRM 1.0 (three-vrm's mapping). */
const VRM0_PRESETS: Readonly<Record<string, string>> = {
  a: 'aa',
  i: 'ih',
  u: 'ou',
  e: 'ee',
  o: 'oh',
  joy: 'happy',
  sorrow: 'sad',
  fun: 'relaxed',
  blink: 'blink',
  blink_l: 'blinkLeft',
  blink_r: 'blinkRight',
  angry: 'angry',
  neutral: 'neutral',
  lookup: 'lookUp',
  lookdown: 'lookDown',
  lookleft: 'lookLeft',
  lookright: 'lookRight',
  surprised: 'surprised',
};

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const int = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

export function expressionBinds(json: Json, version: '0' | '1'): ExpressionBinds {
  const nodes = arr(json.nodes);
  const out = new Map<string, { binary: boolean; binds: Bind[] }>();
  const ext = (json.extensions ?? {}) as Json;
  if (version === '1') {
    const expressions = ((ext.VRMC_vrm as Json | undefined)?.expressions ?? {}) as Json;
    for (const group of ['preset', 'custom']) {
      for (const [name, e] of Object.entries((expressions[group] ?? {}) as Record<string, Json>)) {
        const binds = arr(e?.morphTargetBinds)
          .filter((b) => int(b.node) && b.node < nodes.length && int(b.index) && typeof b.weight === 'number')
          .map((b) => ({ node: b.node as number, index: b.index as number, weight: b.weight as number }));
        out.set(name, { binary: e?.isBinary === true, binds });
      }
    }
  } else {
    const groups = arr(((ext.VRM as Json | undefined)?.blendShapeMaster as Json | undefined)?.blendShapeGroups);
    for (const g of groups) {
      const preset = typeof g.presetName === 'string' ? VRM0_PRESETS[g.presetName.toLowerCase()] : undefined;
      const name = preset ?? (typeof g.name === 'string' ? g.name : undefined);
      if (!name) continue;
      const binds: Bind[] = [];
      for (const b of arr(g.binds)) {
        if (!int(b.mesh) || !int(b.index) || typeof b.weight !== 'number') continue;
        // VRM 0.x binds a mesh (weights 0..100): every node showing that mesh takes it.
        nodes.forEach((n, node) => {
          if (n.mesh === b.mesh) binds.push({ node, index: b.index as number, weight: (b.weight as number) / 100 });
        });
      }
      out.set(name, { binary: g.isBinary === true, binds });
    }
  }
  return { binds: out };
}

function targetCount(json: Json, node: number): number {
  const mesh = arr(json.meshes)[arr(json.nodes)[node]?.mesh as number];
  return Math.max(0, ...arr(mesh?.primitives).map((p) => arr(p.targets).length));
}

export interface WeightTrack {
  readonly node: number;
  /** frames × targets weights. */
  readonly values: Float32Array;
}

/** The weights tracks the frames' expressions give, and the expressions the avatar has no binds for. */
export function weightTracks(frames: PoseFrames, json: Json, binds: ExpressionBinds): { tracks: WeightTrack[]; missing: string[] } {
  const n = frames.times.length;
  const tracks = new Map<number, Float32Array>();
  const counts = new Map<number, number>();
  const missing: string[] = [];
  for (const [name, weights] of frames.expressions) {
    const e = binds.binds.get(name);
    if (!e?.binds.length) {
      missing.push(name);
      continue;
    }
    for (const b of e.binds) {
      let k = counts.get(b.node);
      if (k === undefined) counts.set(b.node, k = targetCount(json, b.node));
      if (b.index >= k) continue;
      let t = tracks.get(b.node);
      if (!t) tracks.set(b.node, t = new Float32Array(n * k));
      for (let f = 0; f < n; f++) {
        const w = e.binary ? (weights[f] > 0.5 ? 1 : 0) : weights[f];
        t[f * k + b.index] += w * b.weight;
      }
    }
  }
  return { tracks: [...tracks].map(([node, values]) => ({ node, values })), missing };
}
