/**
 * Hostile inputs of issue 24's reader findings, generated in code (tests/helpers' writers): each
 * multiplies something cheap (shared links, takes x frames, one accessor under many channels, a
 * deep chain) into work or memory far beyond what the file's size justifies.
 */
import { encodeBinaryFbx, fbxScene, type Node, type Prop } from '../../testkit/fbxWriter';
import { RawGlb } from '../../testkit/rawVrma';
import { writePmd } from '../../testkit/pmdWriter';
import { writeVmd } from '../../testkit/mmdWriters';
import { STANDARD_MMD_RIG } from '../../shared/convert/mmd/standardRig';
import type { PmxBone } from '../../shared/convert/mmd/pmx';

const TICKS = 46186158000;
const L = (v: number): Prop => ({ t: 'L', v });
const S = (v: string): Prop => ({ t: 'S', v });
const n = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });
const C = (kind: 'OO' | 'OP', a: number, b: number, prop?: string): Node => n('C', [S(kind), L(a), L(b), ...(prop ? [S(prop)] : [])]);
const P = (name: string, type: string, v: number): Node => n('P', [S(name), S(type), S(''), S('A'), { t: 'D', v }]);

/** The test writer's humanoid (testkit/fbxWriter.ts) with its Objects and Connections lists to extend. */
function humanoid(): { nodes: Node[]; objects: Node[]; connections: Node[]; model: (name: string) => number } {
  const nodes = fbxScene({ rotations: { LeftArm: [[0, 0, 0], [0, 0, -45]] } });
  const objects = nodes.find((x) => x.name === 'Objects')!.children;
  const connections = nodes.find((x) => x.name === 'Connections')!.children;
  const model = (name: string) => {
    const m = objects.find((o) => o.name === 'Model' && (o.props[1] as { v: string }).v.startsWith(`mixamorig:${name}\u0000`))!;
    return (m.props[0] as { v: number }).v;
  };
  return { nodes, objects, connections, model };
}

/** A curve of `keys` keys one frame (30 fps) apart, values 0..keys-1 (deflates to almost nothing). */
function curve(id: number, keys: number): Node {
  const times = Array.from({ length: keys }, (_, k) => k * (TICKS / 30));
  return n('AnimationCurve', [L(id), S('\u0000\u0001AnimCurve'), S('')], [
    n('KeyTime', [{ t: 'l', v: times }]),
    n('KeyValueFloat', [{ t: 'f', v: times.map((_, k) => k % 90) }]),
  ]);
}

/**
 * Finding 2: `stacks` takes, each listing the same `layers` layers, each listing the same `curveNodes`
 * curve nodes on the left arm, each with one shared curve of `keys` keys as X, Y and Z. Every path
 * stack -> layer -> curve node -> curve is a link the reader walks; before, each re-read its curves.
 */
export function sharedPathsFbx(stacks: number, layers: number, curveNodes: number, keys: number): Uint8Array {
  const { nodes, objects, connections, model } = humanoid();
  const arm = model('LeftArm');
  objects.push(curve(90_000, keys));
  for (let c = 0; c < curveNodes; c++) {
    objects.push(n('AnimationCurveNode', [L(80_000 + c), S('R\u0000\u0001AnimCurveNode'), S('')]));
    connections.push(C('OP', 80_000 + c, arm, 'Lcl Rotation'));
    for (const axis of ['X', 'Y', 'Z']) connections.push(C('OP', 90_000, 80_000 + c, `d|${axis}`));
  }
  for (let l = 0; l < layers; l++) {
    objects.push(n('AnimationLayer', [L(70_000 + l), S(`Layer${l}\u0000\u0001AnimLayer`), S('')]));
    for (let c = 0; c < curveNodes; c++) connections.push(C('OO', 80_000 + c, 70_000 + l));
  }
  for (let s = 0; s < stacks; s++) {
    objects.push(n('AnimationStack', [L(60_000 + s), S(`Take${s}\u0000\u0001AnimStack`), S('')]));
    for (let l = 0; l < layers; l++) connections.push(C('OO', 70_000 + l, 60_000 + s));
  }
  return encodeBinaryFbx(nodes, 7400, true);
}

/**
 * Finding 17: `takes` takes of `frames` frames each (LocalStart/LocalStop), each with its own curve
 * node over one shared two-key curve: each take is within the per-take frame cap, their total is not.
 */
export function manyLongTakesFbx(takes: number, frames: number): Uint8Array {
  const { nodes, objects, connections, model } = humanoid();
  objects.push(curve(90_000, 2));
  for (let s = 0; s < takes; s++) {
    objects.push(n('AnimationCurveNode', [L(80_000 + s), S('R\u0000\u0001AnimCurveNode'), S('')]));
    connections.push(C('OP', 80_000 + s, model('LeftArm'), 'Lcl Rotation'), C('OP', 90_000, 80_000 + s, 'd|Z'));
  }
  for (let s = 0; s < takes; s++) {
    objects.push(n('AnimationStack', [L(60_000 + s), S(`Long${s}\u0000\u0001AnimStack`), S('')], [
      n('Properties70', [], [P('LocalStart', 'KTime', 0), P('LocalStop', 'KTime', (frames - 1) * (TICKS / 30))]),
    ]));
    objects.push(n('AnimationLayer', [L(70_000 + s), S('Base\u0000\u0001AnimLayer'), S('')]));
    connections.push(C('OO', 70_000 + s, 60_000 + s), C('OO', 80_000 + s, 70_000 + s));
  }
  return encodeBinaryFbx(nodes, 7400, true);
}

/** Finding 4: `depth` bone models in one parent chain under the humanoid's hips (and a cycle at its end when asked). */
export function parentChainFbx(depth: number, cycle = false): Uint8Array {
  const { nodes, objects, connections, model } = humanoid();
  let parent = model('Hips');
  for (let k = 0; k < depth; k++) {
    const id = 200_000 + k;
    objects.push(n('Model', [L(id), S(`chain${k}\u0000\u0001Model`), S('LimbNode')]));
    connections.push(C('OO', id, parent));
    parent = id;
  }
  if (cycle && depth > 1) {
    // A second chain that loops on itself: 300000 -> ... -> 300000+depth-1 -> 300000.
    for (let k = 0; k < depth; k++) objects.push(n('Model', [L(300_000 + k), S(`loop${k}\u0000\u0001Model`), S('LimbNode')]));
    for (let k = 0; k < depth; k++) connections.push(C('OO', 300_000 + k, 300_000 + ((k + 1) % depth)));
  }
  return encodeBinaryFbx(nodes, 7400, true);
}

/**
 * Finding 5: a glTF whose `nodes` nodes form one parent chain (node k's child is k+1), with a rotation
 * channel on the last; `cycle` adds two nodes after the chain that are each other's child, so a
 * check that walks up from every node in turn pays the whole chain's n x depth before it meets them.
 */
export function nodeChainGlb(nodes: number, cycle = false): Uint8Array {
  const g = new RawGlb();
  const times = g.floats([0, 1], 'SCALAR');
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the rounded half-turn a hand-written file has.
  const rotations = g.floats([0, 0, 0, 1, 0, 0.7071, 0, 0.7071], 'VEC4');
  const list: { name: string; children?: number[] }[] = Array.from({ length: nodes }, (_, k) => (k + 1 < nodes ? { name: `n${k}`, children: [k + 1] } : { name: `n${k}` }));
  if (cycle) list.push({ name: 'a', children: [nodes + 1] }, { name: 'b', children: [nodes] });
  return g.build({
    asset: { version: '2.0' },
    nodes: list,
    animations: [{ channels: [{ sampler: 0, target: { node: nodes - 1, path: 'rotation' } }], samplers: [{ input: times, output: rotations }] }],
  });
}

/** A small Mixamo-named humanoid as glTF nodes (metres, T-pose): the recognizer finds it by name. */
const HUMANOID: readonly [string, number, [number, number, number]][] = [
  ['Hips', -1, [0, 0.95, 0]],
  ['Spine', 0, [0, 0.1, 0]],
  ['Spine1', 1, [0, 0.12, 0]],
  ['Spine2', 2, [0, 0.12, 0]],
  ['Neck', 3, [0, 0.15, 0]],
  ['Head', 4, [0, 0.1, 0]],
  ...([['Left', 1], ['Right', -1]] as const).flatMap(([side, x], k): [string, number, [number, number, number]][] => {
    const at = 6 + k * 7;
    return [
      [`${side}UpLeg`, 0, [0.09 * x, -0.05, 0]],
      [`${side}Leg`, at, [0, -0.42, 0]],
      [`${side}Foot`, at + 1, [0, -0.42, 0]],
      [`${side}Shoulder`, 3, [0.03 * x, 0.1, 0]],
      [`${side}Arm`, at + 3, [0.1 * x, 0, 0]],
      [`${side}ForeArm`, at + 4, [0.27 * x, 0, 0]],
      [`${side}Hand`, at + 5, [0.25 * x, 0, 0]],
    ];
  }),
];

function humanoidNodes(): { name: string; translation: number[]; children: number[] }[] {
  const nodes = HUMANOID.map(([name, , t]) => ({ name: `mixamorig:${name}`, translation: [...t], children: [] as number[] }));
  HUMANOID.forEach(([, parent], i) => {
    if (parent >= 0) nodes[parent].children.push(i);
  });
  return nodes;
}

/**
 * Finding 5: a humanoid whose every bone but the hips has a rotation channel over the SAME `keys`-key
 * input and output accessors, and the hips one over its own 2-key input: the union of key times used
 * to copy every channel's times (channels x keys numbers) once the inputs were not all the same.
 */
export function sharedAccessorGlb(keys: number): Uint8Array {
  const g = new RawGlb();
  // Built on typed arrays directly (RawGlb.floats spreads its values into Math.min, too many here).
  const t = Float32Array.from({ length: keys }, (_, k) => k / 30);
  const q = Float32Array.from({ length: keys * 4 }, (_, k) => (k % 4 === 3 ? 1 : 0));
  const times = g.accessor({ bufferView: g.view(new Uint8Array(t.buffer)), componentType: 5126, count: keys, type: 'SCALAR', min: [0], max: [t[keys - 1]] });
  const rot = g.accessor({ bufferView: g.view(new Uint8Array(q.buffer)), componentType: 5126, count: keys, type: 'VEC4' });
  const short = g.floats([0, 1], 'SCALAR');
  const shortRot = g.floats([0, 0, 0, 1, 0, 0, 0, 1], 'VEC4');
  const nodes = humanoidNodes();
  return g.build({
    asset: { version: '2.0' },
    scenes: [{ nodes: [0] }],
    nodes,
    animations: [{
      channels: nodes.map((_, k) => ({ sampler: k === 0 ? 1 : 0, target: { node: k, path: 'rotation' } })),
      samplers: [{ input: times, output: rot }, { input: short, output: shortRot }],
    }],
  });
}

/** The MMD standard skeleton (shared/convert/mmd/standardRig.ts) as a model, `extra` bones spliced in by the caller. */
function standardModel(): PmxBone[] {
  const at = new Map(STANDARD_MMD_RIG.map((b, i) => [b.key, i] as const));
  return STANDARD_MMD_RIG.map((b) => ({
    name: b.key,
    englishName: '',
    key: b.key,
    position: b.position,
    parent: b.parent === null ? -1 : at.get(b.parent)!,
    appendParent: b.appendRotation ? at.get(b.appendRotation[0])! : -1,
    appendRatio: b.appendRotation ? b.appendRotation[1] : 0,
    appendRotation: !!b.appendRotation,
    appendTranslation: false,
    ik: b.ik ? { target: at.get(b.ik[0])!, links: b.ik[1].map((l) => at.get(l)!), iterations: b.ik[2].iterations, limitAngle: b.ik[2].limitAngle, limits: b.ik[1].map(() => undefined) } : undefined,
  }));
}

const pmd = (bones: PmxBone[]): Uint8Array => writePmd({ version: 1, name: 'hostile', englishName: '', bones, bonesOffset: 0 });

/**
 * Finding 6: the standard skeleton with `depth` bones chained between 全ての親 and センター, so every
 * bone of the body sits below the chain and each frame evaluates all of them.
 */
export function boneChainPmd(depth: number): Uint8Array {
  const bones = standardModel();
  const first = bones.length;
  const centre = bones.findIndex((b) => b.key === 'センター');
  for (let k = 0; k < depth; k++) bones.push({ ...bones[0], name: `c${k}`, key: `c${k}`, parent: k === 0 ? 0 : first + k - 1, ik: undefined });
  bones[centre] = { ...bones[centre], parent: first + depth - 1 };
  return pmd(bones);
}

/** Finding 6: the standard skeleton with `copies` more 左足IK bones (the same leg chain, each solved every frame). */
export function legIkCopiesPmd(copies: number): Uint8Array {
  const bones = standardModel();
  const ik = bones.find((b) => b.key === '左足IK')!;
  for (let k = 0; k < copies; k++) bones.push(ik);
  return pmd(bones);
}

/** A VMD of two センター keys `frames` frames apart: ~270 bytes that ask for `frames` + 1 frames. */
export function twoKeyVmd(frames: number): Uint8Array {
  return writeVmd({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: frames, position: [0, 1, 0] }] });
}

/**
 * Finding 11: a .vrma whose hips sit below a chain of `depth` nodes that only translate: the smaller
 * rig folds them all, and its walk over the kept children went one call deeper per folded node.
 */
export function foldedChainVrma(depth: number): Uint8Array {
  const g = new RawGlb();
  const times = g.floats([0, 1], 'SCALAR');
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the rounded half-turn a hand-written file has.
  const rot = g.floats([0, 0, 0, 1, 0, 0.7071, 0, 0.7071], 'VEC4');
  const nodes = Array.from({ length: depth + 1 }, (_, k) => (k < depth ? { translation: [0, 0.001, 0], children: [k + 1] } : { name: 'hips' }));
  return g.build({
    asset: { version: '2.0' },
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: { VRMC_vrm_animation: { specVersion: '1.0', humanoid: { humanBones: { hips: { node: depth } } } } },
    scenes: [{ nodes: [0] }],
    nodes,
    animations: [{ channels: [{ sampler: 0, target: { node: depth, path: 'rotation' } }], samplers: [{ input: times, output: rot }] }],
  });
}

/** Finding 11: a glTF JSON text nested `levels` arrays deep inside `extras` (valid JSON, absurd depth). */
export function deepJsonGltf(levels: number): Uint8Array {
  return new TextEncoder().encode(`{"asset":{"version":"2.0"},"extras":${'['.repeat(levels)}${']'.repeat(levels)}}`);
}

/** A GLB around a JSON text as given (JSON.stringify of a deep value would itself overflow). */
export function glbOfJsonText(text: string): Uint8Array {
  const json = new TextEncoder().encode(text);
  const jsonLen = (json.length + 3) & ~3;
  const out = new Uint8Array(20 + jsonLen);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); // "glTF"
  dv.setUint32(4, 2, true);
  dv.setUint32(8, out.length, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.set(json, 20);
  out.fill(0x20, 20 + json.length);
  return out;
}

/** Finding 12: a humanoid .glb with `animations` animations (2 keys each, one accessor pair shared): one file, that many takes. */
export function manyAnimationsGlb(animations: number): Uint8Array {
  const g = new RawGlb();
  const times = g.floats([0, 1], 'SCALAR');
  const rot = g.floats([0, 0, 0, 1, 0, 0.3827, 0, 0.9239], 'VEC4');
  return g.build({
    asset: { version: '2.0' },
    scenes: [{ nodes: [0] }],
    nodes: humanoidNodes(),
    animations: Array.from({ length: animations }, (_, k) => ({ name: `move${k}`, channels: [{ sampler: 0, target: { node: 10, path: 'rotation' } }], samplers: [{ input: times, output: rot }] })),
  });
}

/** Finding 1: an ASCII FBX of `records` empty records ("a:" lines), about 3 bytes each (80 MB: 27 M records). */
export function emptyRecordsAsciiFbx(records: number): Uint8Array {
  return new TextEncoder().encode(`; FBX 7.4.0 project file\n${'a:\n'.repeat(records)}`);
}

/** Finding 3: a .gltf of `nodes` empty nodes (about 3 bytes each: 30 MB is 10 M nodes), as JSON text or inside a GLB. */
export function emptyNodesGltf(nodes: number, glb = false): Uint8Array {
  const text = `{"asset":{"version":"2.0"},"nodes":[${'{},'.repeat(nodes - 1)}{}]}`;
  return glb ? glbOfJsonText(text) : new TextEncoder().encode(text);
}
