/**
 * The smaller file's rig (shared/vrma/compactRig.ts): fewer nodes, and nothing a VRMA player reads
 * moves. On every fixture: the rest rotations used for every animated bone (its own and its nearest
 * mapped ancestor's world rest rotation), the hips' parent matrix and rest position, and the world
 * matrix and parent world matrix of every animated node are the source's within 1e-6; the required
 * bones stay mapped; the channels are the same arrays. A hand-made rig checks what is folded, what is
 * kept and what is dropped.
 */
import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import type { Channel, GltfJson, Motion } from '../../../shared/motion/types';
import { compactRig, terseNode } from '../../../shared/vrma/compactRig';
import { computeRestPose, parentIndices, worldMatrices } from '../../../shared/vrma/restPose';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { maxPoseError } from '../../../shared/edits/poseError';
import { REQUIRED_HUMAN_BONES, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { angleBetween } from '../../../shared/math/quat';
import { validateVrmaBytes } from '../../../testkit/validate';
import { describeFixtures } from '../../../testkit/fixtures';
import { loadShortMotion, shortMotionFiles } from '../edits/shortMotions';

type Json = Record<string, any>;
const EPS = 1e-6;

function maxDiff(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i])));
}

/** Every property of the compacted motion a player reads, against the source. */
function expectSameForPlayers(src: Motion, small: Motion): void {
  const srcWorld = worldMatrices(src.gltf.nodes as Json[]);
  const smallWorld = worldMatrices(small.gltf.nodes as Json[]);
  const srcParent = parentIndices(src.gltf.nodes as Json[]);
  const smallParent = parentIndices(small.gltf.nodes as Json[]);
  const I = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  expect(small.channels.length).toBe(src.channels.length);
  src.channels.forEach((c, i) => {
    const d = small.channels[i];
    expect(d.path).toBe(c.path);
    expect(d.times).toBe(c.times);
    expect(d.values).toBe(c.values);
    // The node's world rest matrix and the frame its keys are in: the parent's world matrix for
    // translation keys, its rotation and scale (the upper 3x3) for rotation keys (a folded parent's
    // translation moved into the node's own rest translation).
    expect(maxDiff(smallWorld[d.node], srcWorld[c.node])).toBeLessThanOrEqual(EPS);
    const pa = srcParent[c.node] === -1 ? I : srcWorld[srcParent[c.node]];
    const pb = smallParent[d.node] === -1 ? I : smallWorld[smallParent[d.node]];
    const frame = c.path === 'rotation' ? [0, 1, 2, 4, 5, 6, 8, 9, 10] : [...pa.keys()];
    expect(maxDiff(frame.map((k) => pb[k]), frame.map((k) => pa[k]))).toBeLessThanOrEqual(EPS);
    const bone = src.humanoid.nodeToBone.get(c.node);
    expect(small.humanoid.nodeToBone.get(d.node)).toBe(bone);
    if (bone) {
      const a = src.rest.bones[bone]!;
      const b = small.rest.bones[bone]!;
      expect(angleBetween(a.world, b.world)).toBeLessThanOrEqual(EPS);
      expect(angleBetween(a.parentWorld, b.parentWorld)).toBeLessThanOrEqual(EPS);
      expect(maxDiff(a.worldPosition, b.worldPosition)).toBeLessThanOrEqual(EPS);
    }
  });
  expect(maxDiff(small.rest.hipsParentWorld, src.rest.hipsParentWorld)).toBeLessThanOrEqual(EPS);
  expect(Math.abs(small.rest.hipsHeight - src.rest.hipsHeight)).toBeLessThanOrEqual(EPS);
  for (const b of REQUIRED_HUMAN_BONES) if (src.humanoid.boneToNode[b] !== undefined) expect(small.humanoid.boneToNode[b], `required bone ${b}`).toBeDefined();
  expect(small.expressions.map((e) => e.name)).toEqual(src.expressions.map((e) => e.name));
  expect(small.lookAtNode === undefined).toBe(src.lookAtNode === undefined);
}

describeFixtures('compact rig on the real short motions', () => {
  for (const file of shortMotionFiles()) {
    it(`${basename(file)}: rest rotations, hips frame and the world matrices of animated nodes stay within 1e-6`, () => {
      const src = loadShortMotion(file);
      const small = compactRig(src);
      expectSameForPlayers(src, small);
      expect((small.gltf.nodes as Json[]).length).toBeLessThanOrEqual((src.gltf.nodes as Json[]).length);
      if (basename(file) === 'test.vrma') {
        // 53 humanoid nodes, 3 animated: the required bones, the animated ones, rightShoulder (the arm's
        // mapped parent), the nodes between them that rotate, the expression and lookAt nodes.
        expect((src.gltf.nodes as Json[]).length).toBe(53);
        expect((small.gltf.nodes as Json[]).length).toBe(19);
      }
    });
  }
});

/** A hand-made rig: root -> hips -> between -> spine -> twisted -> chest -> neck -> head, and extra. */
function handMadeRig(): Motion {
  const r = Math.SQRT1_2;
  const nodes: Json[] = [
    { name: 'root', translation: [0, 0.5, 0], children: [1, 6] }, // 0: parent of the translated hips: kept
    { name: 'hips', translation: [0, 0.4, 0], children: [2] }, // 1
    { name: 'between', translation: [0, 0.1, 0], children: [3] }, // 2: only translates: folded into spine
    { name: 'spine', translation: [0, 0.1, 0], rotation: [0, r, 0, r], children: [4] }, // 3: animated
    { name: 'twisted', rotation: [r, 0, 0, r], children: [5] }, // 4: rotates: kept, unmapped
    { name: 'chest', translation: [0, 0.2, 0], children: [7] }, // 5: animated
    { name: 'extra', translation: [1, 0, 0] }, // 6: needed by nothing: dropped
    { name: 'neck', translation: [0, 0.1, 3e-9], rotation: [0, 0, 2e-8, 1], children: [8] }, // 7: mapped, unanimated, optional: folded
    { name: 'head', translation: [0, 0.1, 0] }, // 8: required
  ];
  const gltf: GltfJson = { asset: { version: '2.0' }, nodes, scenes: [{ nodes: [0] }], scene: 0 };
  const boneToNode: Partial<Record<HumanBoneName, number>> = { hips: 1, spine: 3, chest: 5, neck: 7, head: 8 };
  const times = Float32Array.of(0, 0.5, 1);
  const turn = (a: number) => [0, 0, Math.sin(a / 2), Math.cos(a / 2)];
  const channels: Channel[] = [
    { node: 1, path: 'translation', times, values: Float32Array.of(0, 0.4, 0, 0.1, 0.4, 0, 0.2, 0.4, 0) },
    { node: 3, path: 'rotation', times, values: Float32Array.from([...turn(0), ...turn(0.3), ...turn(0.6)]) },
    { node: 5, path: 'rotation', times, values: Float32Array.from([...turn(0.1), ...turn(-0.2), ...turn(0.4)]) },
  ];
  return {
    gltf,
    channels,
    specVersion: '1.0',
    humanoid: { boneToNode, nodeToBone: new Map(Object.entries(boneToNode).map(([b, n]) => [n!, b as HumanBoneName])) },
    expressions: [],
    rest: computeRestPose(gltf, boneToNode),
    warnings: [],
  };
}

describe('compact rig rules', () => {
  it('folds nodes that only translate, keeps rotating ones and the frame of translated keys, drops what nothing needs', async () => {
    const src = handMadeRig();
    const small = compactRig(src);
    expectSameForPlayers(src, small);
    const nodes = small.gltf.nodes as Json[];
    // root, hips, spine, twisted, chest, head; 'between' and 'neck' folded, 'extra' dropped.
    expect(nodes.length).toBe(6);
    expect(nodes.map((n) => n.name)).toEqual(['root', undefined, undefined, 'twisted', undefined, undefined]);
    expect(small.humanoid.boneToNode).toEqual({ hips: 1, spine: 2, chest: 4, head: 5 });
    // spine gained between's translation; head gained neck's (its noise written as 0).
    expect(nodes[2].translation).toEqual([0, 0.2, 0]);
    expect(nodes[5].translation).toEqual([0, 0.2, 0]);
    expect(nodes[4].rotation).toBeUndefined(); // identity left out
    expect(small.gltf.scenes).toEqual([{ nodes: [0] }]);
    // Written and read back: valid, every track found, the same pose.
    const bytes = writeVrma(small);
    expect((await validateVrmaBytes(bytes)).errors).toBe(0);
    const back = readVrma(writeVrma(src, { quantize: true }));
    const e = maxPoseError(src, back);
    expect(e.unmatched).toBe(0);
    expect(e.rotation).toBeLessThanOrEqual(7e-5);
    expect(e.position).toBe(0);
  });

  it('a node with a translation track keeps its parent even when the parent only translates', () => {
    const src = handMadeRig();
    const small = compactRig(src);
    expect((small.gltf.nodes as Json[])[0]).toEqual({ name: 'root', translation: [0, 0.5, 0], children: [1] });
  });

  it('leaves a glTF with other data or other extensions whole (they might index nodes)', () => {
    const src = handMadeRig();
    for (const gltf of [{ ...src.gltf, cameras: [{ type: 'perspective' }] }, { ...src.gltf, extensions: { VRMC_vrm_animation: {}, KHR_lights_punctual: {} } }]) {
      const m = { ...src, gltf };
      expect(compactRig(m)).toBe(m);
    }
    const cyclic = { ...src, gltf: { ...src.gltf, nodes: (src.gltf.nodes as Json[]).map((n, i) => (i === 8 ? { ...n, children: [0] } : n)) } };
    expect(compactRig(cyclic)).toBe(cyclic);
  });

  it('terser node JSON: shortest float32, noise to 0, defaults left out', () => {
    expect(terseNode({ name: 'a', translation: [0, 0, 0], rotation: [0, 8.7e-38, 1.8e-15, 1], scale: [1, 1.00000001, 1] }, undefined, true)).toEqual({});
    expect(terseNode({ rotation: [0, 0, -1, 7.54979e-8], translation: [0.8454006177777778, -1e-9, 2] })).toEqual({ rotation: [0, 0, -1, 0], translation: [0.84540063, 0, 2] });
  });
});
