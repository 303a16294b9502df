/**
 * Issue 24, findings 2, 4, 5, 6, 11 and 17: every reader charges one read budget (shared/readBudget.ts)
 * for what it decodes, walks and computes, walks trees without recursion and checks cycles in one
 * pass. Each hostile file (tests/security/hostileReaders.ts) ends in a typed MotionError whose detail
 * is worded in English and Japanese, or in a correct result; before, they ran for minutes, took
 * gigabytes or escaped as "RangeError: Maximum call stack size exceeded".
 * Figures are counts (objects shared, frames refused or kept), never times: speed is in bench/.
 */
import { describe, expect, it } from 'vitest';
import { MotionError } from '../../shared/errors';
import { CATALOGUE } from '../../shared/i18n/catalogue';
import { convertFbxTake, convertFbxTakes, listFbxTakes, readFbx } from '../../shared/convert/fbx/convertFbx';
import { convertGltfTakes, listGltfTakes, readGltf } from '../../shared/convert/gltf/convertGltf';
import { convertVmd } from '../../shared/convert/mmd/index';
import { MAX_JSON_DEPTH } from '../../shared/gltf/jsonShape';
import { nodeInCycle } from '../../shared/gltf/nodeTree';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import type { FbxCurve } from '../../shared/convert/fbx/sceneTypes';
import {
  boneChainPmd,
  deepJsonGltf,
  foldedChainVrma,
  glbOfJsonText,
  legIkCopiesPmd,
  manyLongTakesFbx,
  nodeChainGlb,
  parentChainFbx,
  sharedAccessorGlb,
  sharedPathsFbx,
  twoKeyVmd,
} from './hostileReaders';

/** The MotionError `f` throws, checked to be worded in both languages (not an engine error). */
function typedError(f: () => unknown): MotionError {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error, 'expected a MotionError').toBeInstanceOf(MotionError);
  const e = error as MotionError;
  expect(e.detail, `${e.code}: ${e.message}`).toBeDefined();
  expect(CATALOGUE.en[`errorDetail.${e.detail}`], e.detail).toBeTruthy();
  expect(CATALOGUE.ja[`errorDetail.${e.detail}`], e.detail).toBeTruthy();
  return e;
}

describe('FBX: shared links are read once and charged (findings 2, 17)', () => {
  it('20 takes x 20 layers x 20 curve nodes over one 20k-key curve: one curve object, 8,000 paths charged, conversion refused', () => {
    const bytes = sharedPathsFbx(20, 20, 20, 20_000);
    expect(bytes.length).toBeLessThan(200_000);
    const source = readFbx(bytes);
    const stacks = source.scene.stacks.filter((s) => s.name.startsWith('Take') && s.name !== 'Take 001');
    expect(stacks).toHaveLength(20);
    // Every path stack -> layer -> curve node reaches the same curve, read once (before: 8,000 x 3 copies).
    const curves = new Set<FbxCurve>();
    for (const s of stacks) for (const cn of s.curveNodes) for (const c of cn.curves.values()) curves.add(c);
    expect(stacks.reduce((n, s) => n + s.curveNodes.length, 0)).toBe(8_000);
    expect(curves.size).toBe(1);
    expect([...curves][0].times).toHaveLength(20_000);
    expect(listFbxTakes(bytes)).toHaveLength(21);
    // 20,000 frames x (25 joints + 400 curve nodes) per take is past 8 M numbers: refused before sampling.
    const e = typedError(() => convertFbxTakes(bytes));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.detail).toBe('budget.take');
    expect(e.params.limit).toBe(1 << 23);
  });

  it('a small file of shared links keeps every path (4 x 4 x 4): same curve object, 64 curve nodes, converts', () => {
    const bytes = sharedPathsFbx(4, 4, 4, 30);
    const source = readFbx(bytes);
    const stacks = source.scene.stacks.filter((s) => s.name !== 'Take 001');
    expect(stacks.map((s) => s.curveNodes.length)).toEqual([16, 16, 16, 16]);
    expect(stacks[0].curveNodes[0].curves.get('X')).toBe(stacks[3].curveNodes[15].curves.get('Z'));
    expect(convertFbxTakes(bytes).map((t) => t.motion.channels[0].times.length)).toEqual([2, 30, 30, 30, 30]);
  });

  it('14 takes of 999,000 frames: listed, and refused before the first frame is sampled', () => {
    const bytes = manyLongTakesFbx(14, 999_000);
    const takes = listFbxTakes(bytes);
    expect(takes).toHaveLength(15);
    expect(takes[1].duration).toBeCloseTo(998_999 / 30, 3);
    const e = typedError(() => convertFbxTakes(bytes));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toMatch(/take “Long0” \(999,000 frames\)/);
  });

  it('the frame budget is per file, not per take: 4 takes of 25,000 frames are refused together, each alone converts', () => {
    // 4 x (25 joints + 1 curve node) x 25,000 frames x 4 = 10.4 M > 8,388,608; one take is 2.6 M.
    const bytes = manyLongTakesFbx(4, 25_000);
    const e = typedError(() => convertFbxTakes(bytes));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toMatch(/take “Long3”/);
    const one = convertFbxTakes(bytes, { take: 'Long3' });
    expect(one[0].take.name).toBe('Long3');
    expect(one[0].motion.channels.find((c) => c.path === 'rotation')!.times).toHaveLength(25_000);
  });
});

describe('FBX: parent chains and cycles in one pass (finding 4)', () => {
  it('a 30,000-deep chain and a 30,000-model loop: converted, one cut reported, the chain in the skeleton', () => {
    const bytes = parentChainFbx(30_000, true);
    const source = readFbx(bytes);
    const cuts = source.warnings.filter((w) => w.detail === 'fbx.ownAncestor');
    expect(cuts).toHaveLength(1);
    // The chain hangs below the hips: 25 humanoid joints + 30,000 chain models + 30,000 loop models.
    expect(source.skeleton.ids.length).toBe(25 + 60_000);
    const deepest = source.skeleton.joints[source.skeleton.ids.indexOf('229999')];
    expect(deepest.parent).toBe(source.skeleton.ids.indexOf('229998'));
    expect(convertFbxTake(source, source.scene.stacks[0]).motion.humanoid.boneToNode.hips).toBeDefined();
  });
});

describe('glTF converter: linear cycle check, iterative walk, shared accessors once (finding 5)', () => {
  it('a 20,000-node chain ends in a typed error (no humanoid), not "RangeError: Maximum call stack size exceeded"', () => {
    const bytes = nodeChainGlb(20_000);
    expect(listGltfTakes(bytes)).toHaveLength(1);
    const source = readGltf(bytes);
    expect(source.skeleton.nodeOf).toHaveLength(20_000);
    expect(source.skeleton.joints[19_999].parent).toBe(19_998);
    expect(typedError(() => convertGltfTakes(bytes)).code).toBe('NO_HUMANOID');
  });

  it('the cycle check reads each parent at most twice: 200,000 reads for a 100,000-node chain (before: n x depth / 2 = 5e9)', () => {
    const parent = Int32Array.from({ length: 100_000 }, (_, k) => k - 1);
    let reads = 0;
    const counted = new Proxy(parent, { get: (t, k) => (typeof k === 'string' && /^\d+$/.test(k) && reads++, Reflect.get(t, k)) });
    expect(nodeInCycle(counted)).toBe(-1);
    expect(reads).toBeLessThanOrEqual(2 * parent.length);
    parent[0] = 99_999; // the chain's root now hangs below its leaf
    expect(nodeInCycle(parent)).toBeGreaterThanOrEqual(0);
  });

  it("two nodes that are each other's child after a 100,000-node chain are refused as a cycle (node 100,000 or 100,001)", () => {
    const e = typedError(() => convertGltfTakes(nodeChainGlb(100_000, true)));
    expect(e.code).toBe('BAD_GLTF');
    expect(e.detail).toBe('gltf.cycle');
    expect([100_000, 100_001]).toContain(e.params.node);
  });

  it('19 channels over one 200,000-key accessor and one over 2 keys: times united once (200,000), conversion refused by the budget', () => {
    const bytes = sharedAccessorGlb(200_000);
    const anim = readGltf(bytes).animations[0];
    expect(anim.times).toHaveLength(200_000);
    expect(anim.keys).toBe(19 * 200_000 + 2);
    const e = typedError(() => convertGltfTakes(bytes));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.detail).toBe('budget.animation');
  });

  it('the same file with 300 keys converts: 300 keys on every animated bone', () => {
    const motion = convertGltfTakes(sharedAccessorGlb(300))[0].motion;
    const rotations = motion.channels.filter((c) => c.path === 'rotation');
    expect(rotations.length).toBeGreaterThan(10);
    for (const c of rotations) expect(c.times).toHaveLength(300);
  });
});

describe('MMD bake: (bones + IK chains) x frames charged to the model and motion (finding 6)', () => {
  it('a 20,000-bone chain with a 296-byte VMD of 36,000 frames is refused before baking', () => {
    const pmx = boneChainPmd(20_000);
    const vmd = twoKeyVmd(36_000);
    expect(vmd.length).toBeLessThan(300);
    const e = typedError(() => convertVmd(vmd, { pmx }));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toMatch(/baking 36,001 frames of 20,\d{3} bones/);
  });

  it('20,000 copies of 左足IK for 300 frames are refused (each chain costs 16 bones a frame)', () => {
    const e = typedError(() => convertVmd(twoKeyVmd(300), { pmx: legIkCopiesPmd(20_000) }));
    expect(e.code).toBe('TOO_LARGE');
  });

  it('the same chain for 300 frames, and the standard rig for 9,000 frames, still convert', () => {
    // Every frame baked (keys 'everyFrame'), and the default that plays each frame SUBFRAMES times
    // for the VMD's own keys (issue 27): its two keys, the last at the last frame.
    const chained = convertVmd(twoKeyVmd(300), { pmx: boneChainPmd(2_000), keys: 'everyFrame' });
    expect(chained.channels.find((c) => c.path === 'translation')!.times).toHaveLength(301);
    const long = convertVmd(twoKeyVmd(9_000), { keys: 'everyFrame' });
    expect(long.channels.find((c) => c.path === 'translation')!.times).toHaveLength(9_001);
    for (const sparse of [convertVmd(twoKeyVmd(300), { pmx: boneChainPmd(2_000) }), convertVmd(twoKeyVmd(9_000))]) {
      const times = sparse.channels.find((c) => c.path === 'translation')!.times;
      expect(times.length).toBeLessThan(10);
      expect(times[0]).toBe(0);
    }
    expect(convertVmd(twoKeyVmd(9_000)).channels.find((c) => c.path === 'translation')!.times.at(-1)).toBe(Math.fround(300));
  });
});

describe('engine errors become typed errors (finding 11)', () => {
  it('a .vrma with hips below 30,000 folded nodes writes quantized: one node, hips 30 m up (±1e-3)', () => {
    const motion = readVrma(foldedChainVrma(30_000));
    const out = readVrma(writeVrma(motion, { quantize: true }));
    expect(out.gltf.nodes).toHaveLength(1);
    expect(out.rest.hipsHeight).toBeCloseTo(30, 3);
  });

  it(`JSON nested 5,000 levels: BAD_JSON json.tooDeep in .gltf, .glb and .vrma; ${MAX_JSON_DEPTH} levels pass the check`, () => {
    const text = deepJsonGltf(5_000);
    for (const f of [() => convertGltfTakes(text), () => convertGltfTakes(glbOfJsonText(new TextDecoder().decode(text))), () => readVrma(glbOfJsonText(new TextDecoder().decode(text)))]) {
      const e = typedError(f);
      expect(e.code).toBe('BAD_JSON');
      expect(e.detail).toBe('json.tooDeep');
      expect(e.params.max).toBe(MAX_JSON_DEPTH);
    }
    // The root object is one level: extras may nest MAX_JSON_DEPTH - 1 arrays; the refusal is then another reader's.
    expect(typedError(() => convertGltfTakes(deepJsonGltf(MAX_JSON_DEPTH - 1))).detail).toBe('gltf.noNodes');
    expect(typedError(() => convertGltfTakes(deepJsonGltf(MAX_JSON_DEPTH))).detail).toBe('json.tooDeep');
  });
});
