/**
 * FBX expressions as blend-shape channels (issue 26), read by tools that share no code with ours:
 * three's FBXLoader + AnimationMixer play each channel's morph influence, and Blender's FBX importer
 * each shape key's value, frame by frame within ±0.01 of three-vrm-animation's reading of the source
 * expression tracks; our own FBX reader brings them back as the same expressions. Prints the table.
 */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { writeFbx } from '../../../shared/export/fbxWriter';
import { EXPRESSION_MESH } from '../../../shared/export/fbxBlendShapes';
import { convertFbx } from '../../../shared/convert/fbx/convertFbx';
import { setExpressionKey } from '../../../shared/edits/expressionKeys';
import { findChannel } from '../../../shared/motion/types';
import { sampleChannel } from '../../../shared/vrma/sample';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { describeBlenderApp, runBlender } from '../../../testkit/blender';

const WEIGHT = 0.01;
const rows: string[] = [];

/** test.vrma's happy track plus blink, aa and a custom expression keyed here. */
function faceVrma(): Uint8Array {
  let m = readVrma(readFixture('vrma', 'test.vrma'));
  m = setExpressionKey(m, 'blink', 0.3, 1);
  m = setExpressionKey(m, 'blink', 0.8, 0);
  m = setExpressionKey(m, 'aa', 0.5, 0.25);
  m = setExpressionKey(m, 'aa', 1.5, 0.9);
  m = setExpressionKey(m, 'smirk', 1, 0.6);
  return writeVrma(m);
}

/** three-vrm-animation's weight of every expression at each time (its tracks, its interpolants). */
async function referenceWeights(vrma: Uint8Array, times: ArrayLike<number>): Promise<Map<string, number[]>> {
  const animation = await loadVrmAnimation(vrma);
  const out = new Map<string, number[]>();
  for (const group of [animation.expressionTracks.preset, animation.expressionTracks.custom] as Map<string, THREE.KeyframeTrack>[]) {
    for (const [name, track] of group) {
      const interpolant = (track as unknown as { createInterpolant(): THREE.Interpolant }).createInterpolant();
      out.set(name, Array.from(times, (t) => (interpolant.evaluate(t) as ArrayLike<number>)[0]));
    }
  }
  return out;
}

describeFixtures('FBX expressions as blend-shape channels', () => {
  it(`three's FBXLoader + AnimationMixer play every channel within ±${WEIGHT} of three-vrm-animation's weights`, async () => {
    const vrma = faceVrma();
    const out = writeFbx(readVrma(vrma));
    expect(out.report.map((w) => w.detail)).not.toContain('export.expressionsNotCarried');
    const times = Float64Array.from({ length: out.frames }, (_, i) => i / 30);
    const ref = await referenceWeights(vrma, times);
    expect([...ref.keys()].sort()).toEqual(['aa', 'blink', 'happy', 'smirk']);
    const group = new FBXLoader().parse(out.bytes.buffer.slice(out.bytes.byteOffset, out.bytes.byteOffset + out.bytes.byteLength) as ArrayBuffer, '');
    const mesh = group.getObjectByName(EXPRESSION_MESH) as THREE.Mesh;
    expect(Object.keys(mesh.morphTargetDictionary!).sort()).toEqual(['aa', 'blink', 'happy', 'smirk']);
    const mixer = new THREE.AnimationMixer(group);
    const action = mixer.clipAction(group.animations[0]);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    let worst = 0;
    let moved = 0;
    for (let f = 0; f < times.length; f++) {
      mixer.setTime(times[f]);
      for (const [name, w] of ref) {
        worst = Math.max(worst, Math.abs(mesh.morphTargetInfluences![mesh.morphTargetDictionary![name]] - w[f]));
        moved = Math.max(moved, w[f]);
      }
    }
    rows.push(`| three FBXLoader | ${times.length} | ${ref.size} | ${worst.toExponential(2)} | ${moved.toFixed(2)} |`);
    expect(moved).toBeGreaterThan(0.8);
    expect(worst).toBeLessThan(WEIGHT);
  });

  it('our FBX reader brings the preset expressions back (and names the custom one it keeps no preset for)', () => {
    const motion = readVrma(faceVrma());
    const back = convertFbx(writeFbx(motion).bytes);
    expect(back.expressions.map((e) => e.name).sort()).toEqual(['aa', 'blink', 'happy']);
    expect(back.warnings.find((w) => w.detail === 'fbx.blendShapesSkipped')?.params?.names).toBe('smirk');
    let worst = 0;
    for (const e of back.expressions) {
      const src = motion.expressions.find((x) => x.name === e.name)!;
      const a = findChannel(motion, src.node, 'translation')!;
      const b = findChannel(back, e.node, 'translation')!;
      for (let f = 0; f <= 60; f++) worst = Math.max(worst, Math.abs(sampleChannel(a, f / 30, new Float64Array(3))[0] - sampleChannel(b, f / 30, new Float64Array(3))[0]));
    }
    rows.push(`| our FBX reader | 61 | ${back.expressions.length} | ${worst.toExponential(2)} | - |`);
    expect(worst).toBeLessThan(WEIGHT);
  });
});

// biome-ignore lint/complexity/noUselessStringRaw: Python source; raw so a backslash added later stays Python's.
const SHAPE_DUMP = String.raw`
def main(args):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = 30
    bpy.ops.import_scene.fbx(filepath=args["file"])
    mesh = [o for o in bpy.data.objects if o.type == "MESH"][0]
    keys = mesh.data.shape_keys
    names = [k.name for k in keys.key_blocks][1:]
    out = {"mesh": mesh.name, "names": names, "values": {n: [] for n in names}}
    for f in range(args["frames"]):
        scene.frame_set(args["start"] + f)
        for n in names:
            out["values"][n].append(keys.key_blocks[n].value)
    return out
`;

describeBlenderApp('FBX expressions imported by Blender', () => {
  it(`Blender's shape keys follow every channel within ±${WEIGHT}`, async () => {
    const vrma = faceVrma();
    const out = writeFbx(readVrma(vrma));
    const dir = mkdtempSync(join(tmpdir(), 'vrma-fbx-shapes-'));
    try {
      writeFileSync(join(dir, 'face.fbx'), out.bytes);
      // Blender puts the take's first key on frame 1 (its scene start), as in fbxExport.test.ts.
      const dump = await runBlender<{ names: string[]; values: Record<string, number[]> }>(SHAPE_DUMP, { file: join(dir, 'face.fbx'), frames: out.frames, start: 1 }, { addon: false });
      expect([...dump.names].sort()).toEqual(['aa', 'blink', 'happy', 'smirk']);
      const times = Float64Array.from({ length: out.frames }, (_, i) => i / 30);
      const ref = await referenceWeights(vrma, times);
      let worst = 0;
      for (const [name, w] of ref) dump.values[name].forEach((v, f) => (worst = Math.max(worst, Math.abs(v - w[f]))));
      rows.push(`| Blender 3.4 | ${out.frames} | ${dump.names.length} | ${worst.toExponential(2)} | - |`);
      expect(worst).toBeLessThan(WEIGHT);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

afterAll(() => {
  if (rows.length) console.log(['| read by | frames | channels | worst weight vs three-vrm-animation | weight max |', '|---|---:|---:|---:|---:|', ...rows].join('\n'));
});
