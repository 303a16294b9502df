/**
 * Test-only re-writers that put a real file's whole scene under one more node, as exporters do (Blender's
 * armature object, FBX2glTF's RootNode, a Maya group): FBX (a Null model above every root model, bind
 * poses and skin links moved with it), GLB (a node above the scene's roots; the inverse bind matrices
 * either left in the skinned mesh's space or rewritten as world bind matrices, Blender's convention)
 * and BVH (a still root joint turned and moved once; BVH has no scale, so a uniform scale goes into every
 * offset and position channel). The placement's matrix is built by three.js, not by the readers' code.
 */
import * as THREE from 'three';
import { encodeBinaryFbx, type Node, type Prop } from '../shared/export/fbxEncode';
import { parseFbx } from '../shared/convert/fbx/convertFbx';
import { isArray, type FbxNode, type FbxValue } from '../shared/convert/fbx/node';
import { packGlb, parseGlb } from '../shared/gltf/glb';

export interface Placement {
  /** Translation in the file's units. */
  readonly t: readonly [number, number, number];
  /** Euler angles in degrees about X, Y, Z (in the format's own XYZ order). */
  readonly r: readonly [number, number, number];
  readonly s: readonly [number, number, number];
}

/** `order`: three.js's name for the Euler order (FBX's eEulerXYZ is extrinsic, three.js 'ZYX', as FBXLoader maps it). */
export function placementMatrix(p: Placement, order: 'XYZ' | 'ZYX' = 'XYZ'): THREE.Matrix4 {
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(...(p.r.map((d) => (d * Math.PI) / 180) as [number, number, number]), order));
  return new THREE.Matrix4().compose(new THREE.Vector3(...p.t), q, new THREE.Vector3(...p.s));
}

/** Seeded random placements: any rotation, scale log-uniform in 0.01–100 (uniform or per axis), translation within ±`reach`. */
export function randomPlacements(count: number, seed: number, reach: number, uniformOnly = false): Placement[] {
  let x = seed >>> 0;
  const rnd = () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const scale = () => 10 ** (rnd() * 4 - 2);
  return Array.from({ length: count }, (_, k) => {
    const u = scale();
    const s: [number, number, number] = uniformOnly || k % 2 === 0 ? [u, u, u] : [u, scale(), scale()];
    return {
      t: [(rnd() * 2 - 1) * reach, (rnd() * 2 - 1) * reach, (rnd() * 2 - 1) * reach],
      r: [rnd() * 360 - 180, rnd() * 180 - 90, rnd() * 360 - 180],
      s,
    };
  });
}

// ---------------------------------------------------------------- FBX

/** The parsed value back as an encoder property (integers as int64, other numbers as doubles, arrays as doubles or int64). */
function prop(v: FbxValue): Prop | undefined {
  if (typeof v === 'string') return { t: 'S', v };
  if (typeof v === 'boolean') return { t: 'C', v };
  if (typeof v === 'bigint') return { t: 'L', v: v as unknown as number };
  if (typeof v === 'number') return Number.isInteger(v) ? { t: 'L', v } : { t: 'D', v };
  if (isArray(v)) {
    const values = v.values();
    return { t: values.every(Number.isInteger) && values.some((x) => Math.abs(x) > 2 ** 31) ? 'l' : 'd', v: values };
  }
  return undefined; // raw bytes (thumbnails, embedded media): not needed by a motion reader
}

function toNode(n: FbxNode): Node {
  return { name: n.name, props: n.props.map(prop).filter((p): p is Prop => p !== undefined), children: n.children.map(toNode) };
}

const S = (v: string): Prop => ({ t: 'S', v });
const D = (v: number): Prop => ({ t: 'D', v });
const P3 = (name: string, v: readonly number[]): Node => ({ name: 'P', props: [S(name), S(name), S(''), S('A'), ...v.map(D)], children: [] });

function premultiply(node: Node, m: THREE.Matrix4): void {
  const a = node.props[0];
  if (!a || !('v' in a) || typeof a.v !== 'object') return;
  const old = new THREE.Matrix4().fromArray(Array.from(a.v as ArrayLike<number>));
  node.props[0] = { t: 'd', v: new THREE.Matrix4().multiplyMatrices(m, old).toArray() };
}

/**
 * The FBX re-encoded (binary 7400) with a Null "WorldPlacement" above every root model. Without a placement it is the
 * same file re-encoded (the test's control case).
 */
export function fbxUnder(bytes: Uint8Array, placement?: Placement): Uint8Array {
  const doc = parseFbx(bytes);
  const nodes = doc.nodes.map(toNode);
  if (placement) {
    const m = placementMatrix(placement, 'ZYX');
    const id = 987654321;
    const objects = nodes.find((n) => n.name === 'Objects')!;
    const connections = nodes.find((n) => n.name === 'Connections')!;
    const modelIds = new Set(objects.children.filter((o) => o.name === 'Model').map((o) => String((o.props[0] as { v: number }).v)));
    for (const c of connections.children) {
      const [kind, child, parent] = c.props as { v: unknown }[];
      if (kind?.v === 'OO' && parent && Number(parent.v) === 0 && modelIds.has(String(child.v))) c.props[2] = { t: 'L', v: id };
    }
    objects.children.push({
      name: 'Model',
      props: [{ t: 'L', v: id }, S('WorldPlacement\u0000\u0001Model'), S('Null')],
      children: [
        { name: 'Version', props: [{ t: 'I', v: 232 }], children: [] },
        { name: 'Properties70', props: [], children: [P3('Lcl Translation', placement.t), P3('Lcl Rotation', placement.r), P3('Lcl Scaling', placement.s)] },
      ],
    });
    connections.children.push({ name: 'C', props: [S('OO'), { t: 'L', v: id }, { t: 'L', v: 0 }], children: [] });
    // World bind matrices move with the scene.
    for (const o of objects.children) {
      if (o.name === 'Pose') { for (const pn of o.children.filter((c) => c.name === 'PoseNode')) for (const mx of pn.children.filter((c) => c.name === 'Matrix')) premultiply(mx, m); }
      if (o.name === 'Deformer') { for (const c of o.children.filter((c) => c.name === 'TransformLink' || c.name === 'Transform')) premultiply(c, m); }
    }
  }
  return encodeBinaryFbx(nodes, 7400, false);
}

// ---------------------------------------------------------------- GLB

interface GltfJson {
  nodes: Record<string, unknown>[];
  scenes: { nodes: number[] }[];
  skins?: { joints: number[]; inverseBindMatrices?: number }[];
  accessors: Record<string, unknown>[];
  bufferViews: Record<string, unknown>[];
  buffers: { byteLength: number }[];
}

function nodeMatrix(n: Record<string, unknown>): THREE.Matrix4 {
  if (Array.isArray(n.matrix)) return new THREE.Matrix4().fromArray(n.matrix as number[]);
  const t = (n.translation as number[] | undefined) ?? [0, 0, 0];
  const r = (n.rotation as number[] | undefined) ?? [0, 0, 0, 1];
  const s = (n.scale as number[] | undefined) ?? [1, 1, 1];
  return new THREE.Matrix4().compose(new THREE.Vector3(...t), new THREE.Quaternion(...r).normalize(), new THREE.Vector3(...s));
}

/**
 * The GLB with a node "WorldPlacement" above the roots of every scene. `bind`: 'mesh' leaves the inverse bind
 * matrices as they are (read in the skinned mesh node's space, which moved too), 'world' rewrites them
 * as the joints' world bind pose (the glTF spec's and Blender's convention).
 */
export function glbUnder(bytes: Uint8Array, placement: Placement, bind: 'mesh' | 'world'): Uint8Array {
  const { json: parsed, bin } = parseGlb(bytes);
  const json = structuredClone(parsed) as GltfJson;
  const m = placementMatrix(placement);
  const parent = new Map<number, number>();
  json.nodes.forEach((n, i) => ((n.children as number[] | undefined) ?? []).forEach((c) => parent.set(c, i)));
  const world = (i: number): THREE.Matrix4 => {
    const p = parent.get(i);
    const local = nodeMatrix(json.nodes[i]);
    return p === undefined ? local : new THREE.Matrix4().multiplyMatrices(world(p), local);
  };
  const extra: number[] = [];
  const extraViews: { skin: number; offset: number; count: number }[] = [];
  if (bind === 'world') {
    (json.skins ?? []).forEach((skin, si) => {
      if (skin.inverseBindMatrices === undefined) return;
      const meshNode = json.nodes.findIndex((n) => n.skin === si);
      // world bind = A · meshWorld · IBM⁻¹, so IBM' = IBM · meshWorld⁻¹ · A⁻¹.
      const back = new THREE.Matrix4().multiplyMatrices(m, meshNode >= 0 ? world(meshNode) : new THREE.Matrix4()).invert();
      const acc = json.accessors[skin.inverseBindMatrices] as { bufferView: number; byteOffset?: number; count: number };
      const view = json.bufferViews[acc.bufferView] as { byteOffset?: number };
      const data = new Float32Array(
        bin.buffer.slice(bin.byteOffset + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0), bin.byteOffset + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + acc.count * 64),
      );
      const offset = extra.length;
      for (let k = 0; k < acc.count; k++) extra.push(...new THREE.Matrix4().fromArray(data, k * 16).multiply(back).toArray());
      extraViews.push({ skin: si, offset, count: acc.count });
    });
  }
  const placed = json.nodes.length;
  json.nodes.push({
    name: 'WorldPlacement',
    translation: [...placement.t],
    rotation: new THREE.Quaternion().setFromRotationMatrix(new THREE.Matrix4().extractRotation(m)).toArray(),
    scale: [...placement.s],
    children: [...new Set(json.scenes.flatMap((s) => s.nodes))],
  });
  for (const s of json.scenes) s.nodes = [placed];
  let outBin = bin;
  if (extra.length) {
    const start = Math.ceil(bin.length / 4) * 4;
    outBin = new Uint8Array(start + extra.length * 4);
    outBin.set(bin);
    new Float32Array(outBin.buffer, start, extra.length).set(extra);
    for (const v of extraViews) {
      json.bufferViews.push({ buffer: 0, byteOffset: start + v.offset * 4, byteLength: v.count * 64 });
      json.accessors.push({ bufferView: json.bufferViews.length - 1, componentType: 5126, count: v.count, type: 'MAT4' });
      json.skins![v.skin].inverseBindMatrices = json.accessors.length - 1;
    }
    json.buffers[0].byteLength = outBin.length;
  }
  return packGlb(json, outBin);
}

// ---------------------------------------------------------------- BVH

/**
 * The BVH under a new ROOT "WorldPlacement" (offset `t`, rotation channels held at `r` in every frame), every
 * offset and position value times the uniform scale s[0]. The old root keeps its channels.
 */
export function bvhUnder(text: string, placement: Placement): string {
  const s = placement.s[0];
  const lines = text.split(/\r?\n/);
  const motionAt = lines.findIndex((l) => /^\s*MOTION\b/.test(l));
  const out: string[] = ['HIERARCHY', 'ROOT WorldPlacement', '{', `  OFFSET ${placement.t.join(' ')}`, '  CHANNELS 3 Xrotation Yrotation Zrotation'];
  const positionColumns: boolean[] = [];
  for (const line of lines.slice(0, motionAt)) {
    if (/^\s*HIERARCHY\b/.test(line)) continue;
    const offset = /^(\s*OFFSET\s+)(\S+)\s+(\S+)\s+(\S+)/.exec(line);
    const channels = /^\s*CHANNELS\s+\d+\s+(.*)$/.exec(line);
    if (channels) { for (const c of channels[1].trim().split(/\s+/)) positionColumns.push(/position$/i.test(c)); }
    const root = /^(\s*)ROOT\b/.exec(line);
    if (offset) out.push(`  ${offset[1]}${[offset[2], offset[3], offset[4]].map((v) => Number(v) * s).join(' ')}`);
    else if (root) out.push(`  ${line.replace(/\bROOT\b/, 'JOINT')}`);
    else out.push(`  ${line}`);
  }
  out.push('}');
  let k = motionAt;
  for (; k < lines.length && !/^\s*Frame Time/i.test(lines[k]); k++) out.push(lines[k]);
  out.push(lines[k]);
  const r = placement.r.join(' ');
  for (const line of lines.slice(k + 1)) {
    if (!line.trim()) continue;
    const values = line.trim().split(/\s+/).map((v, c) => (positionColumns[c] ? Number(v) * s : Number(v)));
    out.push(`${r} ${values.join(' ')}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The GLB with every inverse bind matrix element moved by one float32 step (up or down, seeded): how much
 * the file's own last bit of bind data decides. A conversion that differs from another by no more than such
 * a nudge differs by the precision of the data, not by the converter.
 */
export function nudgeBinds(bytes: Uint8Array, seed: number): Uint8Array {
  const { json: parsed, bin } = parseGlb(bytes);
  const json = parsed as GltfJson;
  const out = bin.slice();
  let x = seed >>> 0;
  for (const skin of json.skins ?? []) {
    if (skin.inverseBindMatrices === undefined) continue;
    const acc = json.accessors[skin.inverseBindMatrices] as { bufferView: number; byteOffset?: number; count: number };
    const view = json.bufferViews[acc.bufferView] as { byteOffset?: number };
    const start = out.byteOffset + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
    const bits = new Int32Array(out.buffer.slice(start, start + acc.count * 64));
    for (let k = 0; k < bits.length; k++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      // Zeros (either sign) and the last row (0 0 0 1) of an affine matrix stay exact.
      if ((bits[k] & 0x7fffffff) !== 0 && k % 4 !== 3) bits[k] += x & 0x10000 ? 1 : -1;
    }
    out.set(new Uint8Array(bits.buffer), start - out.byteOffset);
  }
  return packGlb(json, out);
}
