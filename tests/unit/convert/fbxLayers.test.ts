/**
 * Several animation layers in one FBX take (issue 14), blended per the FBX SDK's FbxAnimLayer
 * (shared/convert/fbx/layers.ts). Real fixture takes are split into layers whose blend must give the
 * original take back: joint world positions of every frame within 1e-5 m of the one-layer take,
 * which a reader that used only the first layer (as before) misses by centimetres. The file side
 * (Weight, BlendMode, RotationAccumulationMode, Mute, Solo and an animated Weight read from the
 * AnimationLayer) is checked on a written FBX.
 */
import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { encodeBinaryFbx, fbxScene, type Node, type Prop } from '../../../testkit/fbxWriter';
import { readFbx, takeFrames, takeInfo, type FbxSource } from '../../../shared/convert/fbx/convertFbx';
import { TICKS_PER_SECOND, type FbxCurve, type FbxCurveNode, type FbxLayer, type FbxStack } from '../../../shared/convert/fbx/sceneTypes';
import { eulerToQuat } from '../../../shared/convert/fbx/transform';
import { CurveCursor } from '../../../shared/convert/fbx/curves';
import { conj, mul } from '../../../shared/math/quat';
import { eulerOfFlat } from '../../../shared/math/euler';
import type { Quat, Vec3 } from '../../../shared/motion/types';

const DEG = 180 / Math.PI;

const scaled = (c: FbxCurve, k: number): FbxCurve => ({ ...c, values: c.values.map((v) => v * k), slopes: c.slopes.map((v) => v * k), defaultValue: c.defaultValue * k });
/** A curve node with its curves and defaults mapped (fc on curves, fd on default values). */
const mapNode = (cn: FbxCurveNode, fc: (c: FbxCurve) => FbxCurve, fd: (d: number) => number): FbxCurveNode => ({
  ...cn,
  curves: new Map([...cn.curves].map(([axis, c]) => [axis, fc(c)])),
  defaults: new Map([...cn.defaults].map(([axis, d]) => [axis, fd(d)])),
});

function layer(name: string, curveNodes: readonly FbxCurveNode[], over: Partial<FbxLayer> = {}): FbxLayer {
  return { id: name, name, weight: 1, blend: 'additive', rotationByChannel: false, scaleAdditive: false, mute: false, solo: false, curveNodes, ...over };
}
const withLayers = (stack: FbxStack, layers: FbxLayer[]): FbxStack => ({ ...stack, layers, curveNodes: layers.flatMap((l) => l.curveNodes), layerCount: layers.length });

/** Largest joint world position difference (metres) between two takes over the given frames. */
function maxDifference(source: FbxSource, a: FbxStack, b: FbxStack, frames?: number[]): { max: number; frames: number } {
  const fps = takeInfo(source.scene, a).fps;
  const fa = takeFrames(source, a, fps);
  const fb = takeFrames(source, b, fps);
  let max = 0;
  const list = frames ?? Array.from({ length: fa.ticks.length }, (_, f) => f);
  for (const f of list) {
    fa.poser.pose(f);
    const pa = Float64Array.from(fa.poser.positions);
    fb.poser.pose(f);
    const pb = fb.poser.positions;
    for (let i = 0; i < pa.length; i++) max = Math.max(max, Math.abs(pa[i] - pb[i]));
  }
  return { max, frames: list.length };
}

const isRot = (cn: FbxCurveNode) => cn.property === 'Lcl Rotation';
const isTrans = (cn: FbxCurveNode) => cn.property === 'Lcl Translation';

describeFixtures('FBX animation layers on real takes', () => {
  const cases = [
    ['quaternius_robot.fbx', 'RobotArmature|Robot_Dance'],
    ['ufbx_maya_kenney_character_7700_binary.fbx', undefined],
  ] as const;
  for (const [file, takeName] of cases) {
    const source = readFbx(readFixture('fbx', file));
    const original = source.scene.stacks.find((s) => takeName === undefined || s.name === takeName)!;
    const base = original.layers[0];
    const nodes = base.curveNodes;

    it(`${file}: base 60% + additive layer at weight 0.4 carrying the rest (T and R by channel) = the take (1e-5 m)`, () => {
      const alpha = 0.6, w = 0.4;
      const split = withLayers(original, [
        layer('base', nodes.map((cn) => (isRot(cn) || isTrans(cn) ? mapNode(cn, (c) => scaled(c, alpha), (d) => d * alpha) : cn))),
        layer('rest', nodes.filter((x) => isRot(x) || isTrans(x)).map((cn) => mapNode(cn, (c) => scaled(c, (1 - alpha) / w), (d) => (d * (1 - alpha)) / w)), { weight: w, rotationByChannel: true }),
      ]);
      const { max, frames } = maxDifference(source, original, split);
      console.log(`${file} ${original.name}: base 60% + additive 40% by channel: ${frames} frames, largest joint difference ${max.toExponential(2)} m`);
      expect(frames).toBeGreaterThan(10);
      expect(max).toBeLessThanOrEqual(1e-5);
      // The base layer alone is far off: the second layer really counts.
      expect(maxDifference(source, original, withLayers(original, [split.layers[0]])).max).toBeGreaterThan(0.01);
    });

    it(`${file}: rotations by layer (quaternions, the default): base · constant additive delta = the take (1e-5 m)`, () => {
      const delta: Vec3 = [12, -20, 7];
      // Every animated joint here uses XYZ order (R = Rz·Ry·Rx): the base holds R·D⁻¹ at each key.
      const orders = new Set(nodes.filter(isRot).map((cn) => source.skeleton.parts[source.skeleton.ids.indexOf(cn.target)]?.rotationOrder ?? 0));
      expect([...orders]).toEqual([0]);
      const dq = eulerToQuat(delta, 0);
      // The base is keyed on the take's frame grid (the original sampled there), so the split is exact at every frame.
      const fps = takeInfo(source.scene, original).fps;
      const ticks = takeFrames(source, original, fps).ticks;
      const baseNodes = nodes.map((cn) => {
        if (!isRot(cn)) return cn;
        const rest = source.skeleton.parts[source.skeleton.ids.indexOf(cn.target)].rotation;
        const at = (['X', 'Y', 'Z'] as const).map((axis, k) => {
          const c = cn.curves.get(axis);
          if (c?.times.length) {
            const cursor = new CurveCursor(c);
            return (t: number) => cursor.at(t);
          }
          const d = cn.defaults.get(axis) ?? rest[k];
          return () => d;
        });
        const out = [new Float64Array(ticks.length), new Float64Array(ticks.length), new Float64Array(ticks.length)];
        const e = new Float64Array(3);
        ticks.forEach((t, i) => {
          const q: Quat = mul(eulerToQuat([at[0](t), at[1](t), at[2](t)], 0), conj(dq));
          // XYZ of R = Rz·Ry·Rx from the R = Rx·Ry·Rz decomposition of its inverse.
          eulerOfFlat(conj(q), 0, e, 0);
          for (let k = 0; k < 3; k++) out[k][i] = -e[k] * DEG;
        });
        const linear = (id: string, values: Float64Array): FbxCurve => ({
          id,
          times: Float64Array.from(ticks),
          values,
          interpolation: new Uint8Array(ticks.length).fill(1),
          slopes: new Float64Array(ticks.length * 2),
          defaultValue: values[0],
        });
        return { ...cn, curves: new Map([['X', linear(`${cn.id}x`, out[0])], ['Y', linear(`${cn.id}y`, out[1])], ['Z', linear(`${cn.id}z`, out[2])]]) };
      });
      const deltaNodes = nodes.filter(isRot).map((cn) => ({ ...cn, curves: new Map<string, FbxCurve>(), defaults: new Map([['X', delta[0]], ['Y', delta[1]], ['Z', delta[2]]]) }));
      const split = withLayers(original, [layer('base', baseNodes), layer('delta', deltaNodes)]);
      const { max, frames } = maxDifference(source, original, split);
      console.log(`${file} ${original.name}: base · additive delta by layer: ${frames} frames, largest joint difference ${max.toExponential(2)} m`);
      expect(frames).toBeGreaterThan(10);
      expect(max).toBeLessThanOrEqual(1e-5);
      // Composed in the other order, or added as Euler angles, the result is off by centimetres.
      const byChannel = withLayers(original, [layer('base', baseNodes), layer('delta', deltaNodes, { rotationByChannel: true })]);
      expect(maxDifference(source, original, byChannel).max).toBeGreaterThan(0.005);
    });

    it(`${file}: override hides the layers before it, passthrough at 0.5 lets half through, a muted layer does nothing, solo wins`, () => {
      const off = (d: number) => nodes.map((cn) => (isRot(cn) ? mapNode(cn, (c) => ({ ...c, values: c.values.map((v) => v + d), defaultValue: c.defaultValue + d }), (x) => x + d) : cn));
      const check = (layers: FbxLayer[]) => maxDifference(source, original, withLayers(original, layers)).max;
      // Wrong base (+30°), an override layer with the take.
      expect(check([layer('wrong', off(30)), layer('right', nodes, { blend: 'override' })])).toBeLessThanOrEqual(1e-5);
      // Base -20°, passthrough layer +20° at half weight, by channel: the mean, i.e. the take.
      expect(check([layer('low', off(-20)), layer('high', off(20), { blend: 'passthrough', weight: 0.5, rotationByChannel: true })])).toBeLessThanOrEqual(1e-5);
      // A muted additive layer of +40° changes nothing; a solo layer is the only one used.
      expect(check([layer('base', nodes), layer('muted', off(40), { mute: true })])).toBeLessThanOrEqual(1e-5);
      expect(check([layer('wrong', off(25)), layer('solo', nodes, { solo: true })])).toBeLessThanOrEqual(1e-5);
      // And the checks can fail: the wrong base alone is far off.
      expect(check([layer('wrong', off(30))])).toBeGreaterThan(0.01);
    });
  }
});

describe('FBX animation layers read from the file', () => {
  const TICKS = TICKS_PER_SECOND;
  const S = (v: string): Prop => ({ t: 'S', v });
  const L = (v: number): Prop => ({ t: 'L', v });
  const D = (v: number): Prop => ({ t: 'D', v });
  const I = (v: number): Prop => ({ t: 'I', v });
  const n = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });
  const P = (name: string, type: string, v: number) => n('P', [S(name), S(type), S(''), S('A'), type === 'enum' ? I(v) : D(v)]);

  /** The test humanoid with its arm raised -45° about Z on the base layer, plus a second layer of `z` degrees with `props`. */
  function twoLayers(z: readonly number[], props: Node[], weightKeys?: readonly number[]): Uint8Array {
    const nodes = fbxScene({ rotations: { LeftArm: [[0, 0, -45], [0, 0, -45], [0, 0, -45]] } });
    const objects = nodes.find((x) => x.name === 'Objects')!.children as Node[];
    const connections = nodes.find((x) => x.name === 'Connections')!.children as Node[];
    const C = (kind: string, a: number, b: number, prop?: string) => connections.push(n('C', [S(kind), L(a), L(b), ...(prop ? [S(prop)] : [])]));
    const arm = objects.find((o) => o.name === 'Model' && String((o.props[1] as { v: string }).v).startsWith('mixamorig:LeftArm\u0000'))!;
    const armId = (arm.props[0] as { v: number }).v;
    objects.push(n('AnimationLayer', [L(3), S('Layer2\u0000\u0001AnimLayer'), S('')], [n('Properties70', [], props)]));
    C('OO', 3, 1);
    const curve = (id: number, values: readonly number[]) =>
      n('AnimationCurve', [L(id), S('\u0000\u0001AnimCurve'), S('')], [
        n('Default', [D(values[0])]),
        n('KeyVer', [I(4009)]),
        n('KeyTime', [{ t: 'l', v: values.map((_, f) => f * (TICKS / 30)) }]),
        n('KeyValueFloat', [{ t: 'f', v: values }]),
        n('KeyAttrFlags', [{ t: 'i', v: [0x104] }]),
        n('KeyAttrDataFloat', [{ t: 'f', v: [0, 0, 0, 0] }]),
        n('KeyAttrRefCount', [{ t: 'i', v: [values.length] }]),
      ]);
    objects.push(n('AnimationCurveNode', [L(7000), S('R\u0000\u0001AnimCurveNode'), S('')], [n('Properties70', [], [P('d|X', 'Number', 0), P('d|Y', 'Number', 0), P('d|Z', 'Number', z[0])])]));
    C('OO', 7000, 3);
    C('OP', 7000, armId, 'Lcl Rotation');
    objects.push(curve(7001, z));
    C('OP', 7001, 7000, 'd|Z');
    if (weightKeys) {
      objects.push(n('AnimationCurveNode', [L(7100), S('Weight\u0000\u0001AnimCurveNode'), S('')], [n('Properties70', [], [P('d|Weight', 'Number', weightKeys[0])])]));
      C('OO', 7100, 3);
      C('OP', 7100, 3, 'Weight');
      objects.push(curve(7101, weightKeys));
      C('OP', 7101, 7100, 'd|Weight');
    }
    return encodeBinaryFbx(nodes);
  }

  /** Left arm direction angle in the frontal plane (degrees) at each of the three frames. */
  function armAngles(bytes: Uint8Array): number[] {
    const source = readFbx(bytes);
    const stack = source.scene.stacks[0];
    const { poser } = takeFrames(source, stack, 30);
    const a = source.skeleton.joints.findIndex((j) => j.name === 'mixamorig:LeftArm');
    const b = source.skeleton.joints.findIndex((j) => j.name === 'mixamorig:LeftForeArm');
    return [0, 1, 2].map((f) => {
      poser.pose(f);
      const p = poser.positions;
      return Math.atan2(p[b * 3 + 1] - p[a * 3 + 1], p[b * 3] - p[a * 3]) * DEG;
    });
  }

  it('reads Weight, BlendMode, accumulation modes, Mute and Solo from the AnimationLayer', () => {
    const source = readFbx(
      twoLayers([10, 10, 10], [
        P('Weight', 'Number', 40),
        P('BlendMode', 'enum', 2),
        P('RotationAccumulationMode', 'enum', 1),
        P('ScaleAccumulationMode', 'enum', 1),
        P('Mute', 'bool', 1),
        P('Solo', 'bool', 0),
      ]),
    );
    const layers = source.scene.stacks[0].layers;
    expect(layers.map((l) => l.name)).toEqual(['BaseLayer', 'Layer2']);
    expect(layers[1]).toMatchObject({ weight: 0.4, blend: 'passthrough', rotationByChannel: true, scaleAdditive: true, mute: true, solo: false });
    expect(layers[0]).toMatchObject({ weight: 1, blend: 'additive', rotationByChannel: false, scaleAdditive: false, mute: false });
    expect(layers[1].curveNodes.map((cn) => cn.property)).toEqual(['Lcl Rotation']);
  });

  it('blends them: an additive layer of +20° at 40% turns the arm 8° more; override at 50% goes halfway to it; a muted one does nothing', () => {
    const [base] = armAngles(encodeBinaryFbx(fbxScene({ rotations: { LeftArm: [[0, 0, -45], [0, 0, -45], [0, 0, -45]] } })));
    expect(base).toBeCloseTo(-45, 4);
    expect(armAngles(twoLayers([20, 20, 20], [P('Weight', 'Number', 40)]))[0]).toBeCloseTo(-45 + 8, 4);
    // Override (not passthrough) at 50%: halfway between the model's own rotation (0°) and the layer's 20°.
    expect(armAngles(twoLayers([20, 20, 20], [P('Weight', 'Number', 50), P('BlendMode', 'enum', 1), P('RotationAccumulationMode', 'enum', 1)]))[0]).toBeCloseTo(10, 4);
    // Passthrough at 50%: halfway between the base (-45°) and 20°.
    expect(armAngles(twoLayers([20, 20, 20], [P('Weight', 'Number', 50), P('BlendMode', 'enum', 2), P('RotationAccumulationMode', 'enum', 1)]))[0]).toBeCloseTo(-12.5, 4);
    expect(armAngles(twoLayers([20, 20, 20], [P('Mute', 'bool', 1)]))[0]).toBeCloseTo(-45, 4);
  });

  it('an animated layer Weight (0, 50, 100 %) fades the layer in', () => {
    const angles = armAngles(twoLayers([30, 30, 30], [], [0, 50, 100]));
    expect(angles[0]).toBeCloseTo(-45, 4);
    expect(angles[1]).toBeCloseTo(-30, 4);
    expect(angles[2]).toBeCloseTo(-15, 4);
  });
});
