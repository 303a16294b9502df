/**
 * What each known reader will do with a .vrma (issue 25), as findings: the VRMC_vrm_animation 1.0
 * rules themselves, three-vrm-animation (3.5), Blender's VRM add-on (4.5; tests/unit/interop/ runs it)
 * and UniVRM (from its importer's source, see univrmFindings).
 * Each finding says what it changes and, where one exists, the edit or command that fixes it. The CLI
 * prints `text` (English); the studio words `code` and `params` through `compat.finding.<code>`.
 */
import type { Motion } from '../motion/types';
import { parseGlb } from '../gltf/glb';
import { EXTENSION_NAME, MAX_JSON_CONTAINERS, readVrma } from './read';
import { REQUIRED_HUMAN_BONES } from '../vrm/humanBones';
import { parentIndices, type GltfNode } from './restPose';
import { animatedIntermediateNodes, playerPoseGap } from './intermediateNodes';
import { LINEAR, kindsOf } from '../motion/interpolation';

export const COMPAT_READERS = ['spec', 'threeVrm', 'blender', 'univrm'] as const;
export type CompatReader = (typeof COMPAT_READERS)[number];
/** fails: the reader refuses or breaks the rule; differs: it plays something else than the file says; note: worth knowing. */
export type CompatLevel = 'fails' | 'differs' | 'note';

export const COMPAT_CODES = [
  'missingBones',
  'eyeBones',
  'lookExpressions',
  'weightRange',
  'specVersion',
  'extensionsUsed',
  'scaleChannels',
  'translationNotHips',
  'restHipsHeight',
  'severalAnimations',
  'throwsOnPath',
  'ignoresIntermediate',
  'restHipsZero',
  'appliesIntermediate',
  'gazeRotationIgnored',
  'gazeTranslation',
  'restHipsOffAxis',
  'outsideFirstRoot',
  'otherTracks',
  'noGaze',
  'quantized',
  'eyeTracksIgnored',
  'shiftedNodes',
  'keyKinds',
] as const;
export type CompatCode = (typeof COMPAT_CODES)[number];
/** What fixes a finding: a registry edit (`edit.<id>.label`) or the `upgrade` command (open and save in the studio). */
export type CompatFix = 'bake-intermediate' | 'upgrade' | 'float' | 'resample';

export interface CompatFinding {
  readonly reader: CompatReader;
  readonly level: CompatLevel;
  readonly code: CompatCode;
  readonly params: Readonly<Record<string, string | number>>;
  /** The CLI's English sentence. */
  readonly text: string;
  readonly fix?: CompatFix;
}

// biome-ignore lint/suspicious/noExplicitAny: the file's own JSON, read field by field with checks at each use.
type Json = Record<string, any>;
const LOOK_EXPRESSIONS = ['lookUp', 'lookDown', 'lookLeft', 'lookRight'];
const deg = (rad: number) => `${((rad * 180) / Math.PI).toFixed(2)}°`;
const list = (xs: readonly (string | number)[]) => xs.join(', ');

interface Raw {
  readonly json: Json;
  readonly ext: Json;
  readonly channels: readonly { node: number; path: string; sampler: number }[];
}

function rawOf(bytes: Uint8Array): Raw {
  const json = parseGlb(bytes, { maxJsonContainers: MAX_JSON_CONTAINERS, kind: 'a motion' }).json as Json;
  const anim = Array.isArray(json.animations) ? json.animations[0] : undefined;
  const channels = (Array.isArray(anim?.channels) ? anim.channels : []).flatMap((c: Json) =>
    typeof c?.target?.node === 'number' ? [{ node: c.target.node as number, path: String(c.target.path), sampler: c.sampler as number }] : []
  );
  return { json, ext: (json.extensions?.[EXTENSION_NAME] ?? {}) as Json, channels };
}

function specFindings(raw: Raw, m: Motion, add: (f: CompatFinding) => void): void {
  const spec = (code: CompatCode, params: Record<string, string | number>, text: string) => add({ reader: 'spec', level: 'fails', code, params, text });
  const missing = REQUIRED_HUMAN_BONES.filter((b) => m.humanoid.boneToNode[b] === undefined);
  if (missing.length) spec('missingBones', { bones: list(missing) }, `required humanoid bones missing: ${list(missing)}`);
  const eyes = (['leftEye', 'rightEye'] as const).filter((b) => raw.ext.humanoid?.humanBones?.[b] !== undefined);
  // Mapped but still is harmless; animated eyes fight the gaze (the add-on skips them on import).
  const eyesAnimated = eyes.some((b) => raw.channels.some((c) => c.node === m.humanoid.boneToNode[b]));
  if (eyes.length)
    add({
      reader: 'spec',
      level: eyesAnimated ? 'fails' : 'note',
      code: 'eyeBones',
      params: { bones: list(eyes), animated: eyesAnimated ? 'yes' : 'no' },
      text: `${eyesAnimated ? 'animates' : 'maps'} the eye bones (${list(eyes)}); a VRM Animation moves the eyes through lookAt`,
    });
  const look = m.expressions.filter((e) => LOOK_EXPRESSIONS.includes(e.name)).map((e) => e.name);
  if (look.length) spec('lookExpressions', { names: list(look) }, `has look expressions (${list(look)}); a VRM Animation moves the gaze through lookAt`);
  for (const e of m.expressions) {
    const c = m.channels.find((ch) => ch.node === e.node && ch.path === 'translation');
    if (!c) continue;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < c.times.length; i++) {
      lo = Math.min(lo, c.values[i * 3]);
      hi = Math.max(hi, c.values[i * 3]);
    }
    if (lo < -1e-6 || hi > 1 + 1e-6)
      spec('weightRange', { expression: e.name, min: lo.toFixed(3), max: hi.toFixed(3) }, `expression ${e.name} weights run from ${lo.toFixed(3)} to ${hi.toFixed(3)}, outside 0-1`);
  }
  if (raw.ext.specVersion !== '1.0') spec('specVersion', { spec: JSON.stringify(raw.ext.specVersion) ?? 'missing' }, `specVersion is ${JSON.stringify(raw.ext.specVersion) ?? 'missing'}, not "1.0"`);
  if (!Array.isArray(raw.json.extensionsUsed) || !raw.json.extensionsUsed.includes(EXTENSION_NAME)) spec('extensionsUsed', {}, `${EXTENSION_NAME} is not listed in extensionsUsed`);
  const scale = raw.channels.filter((c) => c.path === 'scale').length;
  if (scale) spec('scaleChannels', { count: scale }, `${scale} scale track(s); a VRM Animation has none`);
  const moved = raw.channels.flatMap((
    c,
  ) => (c.path === 'translation' && m.humanoid.nodeToBone.has(c.node) && m.humanoid.nodeToBone.get(c.node) !== 'hips' ? [m.humanoid.nodeToBone.get(c.node)!] : []));
  if (moved.length) spec('translationNotHips', { bones: list(moved) }, `translation tracks on ${list(moved)}; only the hips may move`);
  if (!(m.rest.hipsHeight > 0)) spec('restHipsHeight', { height: m.rest.hipsHeight.toFixed(4) }, `the rest hips height is ${m.rest.hipsHeight.toFixed(4)}; it must be above 0`);
}

/** Channels a three-vrm-animation 3.5 loader throws on ("Invalid path"): it refuses the whole file. */
function throwingChannels(raw: Raw, m: Motion): string[] {
  const expressionNodes = new Set(Object.values<Json>(raw.ext.expressions?.preset ?? {}).concat(Object.values<Json>(raw.ext.expressions?.custom ?? {})).map((e) => e?.node));
  const boneNodes = new Set(Object.values<Json>(raw.ext.humanoid?.humanBones ?? {}).map((b) => b?.node));
  const lookAt = raw.ext.lookAt?.node;
  return raw.channels.flatMap((c) => {
    const bad = boneNodes.has(c.node) ? c.path !== 'rotation' && c.path !== 'translation' : expressionNodes.has(c.node) ? c.path !== 'translation' : c.node === lookAt && c.path !== 'rotation';
    return bad ? [`node ${c.node} ${c.path}${m.lookAtNode === c.node || c.node === lookAt ? ' (lookAt)' : ''}`] : [];
  });
}

function playerFindings(raw: Raw, m: Motion, add: (f: CompatFinding) => void): void {
  const animations = Array.isArray(raw.json.animations) ? raw.json.animations.length : 0;
  if (animations > 1) {
    for (const reader of ['threeVrm', 'blender', 'univrm'] as const)
      add({ reader, level: 'differs', code: 'severalAnimations', params: { count: animations }, text: `plays the first of the ${animations} animations only` });
  }
  const throwing = throwingChannels(raw, m);
  if (throwing.length)
    add({ reader: 'threeVrm', level: 'fails', code: 'throwsOnPath', params: { tracks: list(throwing) }, text: `refuses the whole file (throws "Invalid path") on ${list(throwing)}`, fix: 'upgrade' });
  const intermediate = animatedIntermediateNodes(m);
  if (intermediate.length) {
    const gap = playerPoseGap(m);
    const names = intermediate.map((n) => ((m.gltf.nodes as Json[])[n]?.name as string | undefined) ?? `node ${n}`);
    const params = { count: intermediate.length, nodes: list(names), bone: gap.bone ?? '-', angle: deg(gap.angle) };
    add({
      reader: 'threeVrm',
      level: 'differs',
      code: 'ignoresIntermediate',
      params,
      text: `ignores ${intermediate.length} animated node(s) between the bones (${list(names)}): the ${params.bone} is up to ${params.angle} off Blender's pose`,
      fix: 'bake-intermediate',
    });
    add({
      reader: 'blender',
      level: 'differs',
      code: 'appliesIntermediate',
      params,
      text: `applies the ${intermediate.length} animated node(s) between the bones that three-vrm ignores: the ${params.bone} is up to ${params.angle} off three-vrm's pose`,
      fix: 'bake-intermediate',
    });
  }
  // createVRMAnimationClip (3.5) rebuilds bone rotation and expression tracks as new three.js tracks, which drops
  // GLTFLoader's interpolant: STEP plays as LINEAR, CUBICSPLINE reads its (in, value, out) triples as keys.
  const kinds = m.channels.filter((c) => kindsOf(c)?.some((k) => k !== LINEAR) && ((c.path === 'rotation' && m.humanoid.nodeToBone.has(c.node)) || m.expressions.some((e) => e.node === c.node)));
  if (kinds.length)
    add({
      reader: 'threeVrm',
      level: 'differs',
      code: 'keyKinds',
      params: { count: kinds.length },
      text: `plays the constant and Bézier keys of ${kinds.length} bone or expression track(s) wrongly (createVRMAnimationClip drops their interpolation)`,
      fix: 'resample',
    });
  const hipsMove = raw.channels.some((c) => c.node === m.humanoid.boneToNode.hips && c.path === 'translation');
  if (hipsMove && !(m.rest.hipsHeight >= 1e-3))
    add({
      reader: 'threeVrm',
      level: 'differs',
      code: 'restHipsZero',
      params: { height: m.rest.hipsHeight.toFixed(4) },
      text: `the rest hips height ${m.rest.hipsHeight.toFixed(4)} is about 0: the hips movement cannot be scaled to the avatar`,
    });
  const gazeRotation = m.lookAtNode !== undefined && raw.channels.some((c) => c.node === m.lookAtNode && c.path === 'rotation');
  const gazeTranslation = raw.ext.lookAt !== undefined && raw.channels.some((c) => c.node === raw.ext.lookAt?.node && c.path === 'translation');
  if (gazeRotation)
    add({
      reader: 'blender',
      level: 'differs',
      code: 'gazeRotationIgnored',
      params: {},
      text: 'reads the gaze only as the translation of a target: this gaze (a rotation, as the spec says) does not arrive',
    });
  if (gazeTranslation)
    add({
      reader: 'blender',
      level: 'note',
      code: 'gazeTranslation',
      params: {},
      text: "reads this gaze (the translation of a target, its own convention); other players need the spec's rotation",
      fix: 'upgrade',
    });
  const hips = m.rest.bones.hips?.worldPosition;
  const off = hips ? Math.hypot(hips[0], hips[2]) : 0;
  if (off > 1e-4) {
    const cm = (off * 100).toFixed(1);
    add({
      reader: 'blender',
      level: 'differs',
      code: 'restHipsOffAxis',
      params: { cm },
      text:
        `the rest hips are ${cm} cm off the vertical axis: the add-on adds the hips movement to the avatar's rest, three-vrm puts the hips where the file has them, so the two place them ${cm} cm (scaled to the avatar) apart`,
    });
  }
  univrmFindings(raw, m, gazeRotation || gazeTranslation, add);
}

/**
 * UniVRM 0.12x, each rule as its source has it (vrm-c/UniVRM, read for issue 25):
 * - Assets/VRM10/Runtime/IO/VrmAnimationImporter.cs, LoadAsync: each animated expression node is
 *   deleted from the node list (`Data.GLTF.nodes.RemoveAt`) before anything else loads, and nothing is
 *   renumbered; then `scenes[0].nodes.Take(1)`: the first root of scenes[0] only. Expressions are read
 *   before that cut, by node index from animations[0] (IterateExpressions), so expression nodes outside
 *   the first root ARE read. No lookAt code at all: the gaze is not imported. GetNodeIndex maps every
 *   bone but leftEye/rightEye (commented out): eye tracks are not played.
 * - Assets/UniGLTF/Runtime/UniGLTF/IO/ImporterContext.cs, SetupAnimationsAsync: every animation becomes a
 *   clip, `animation.clip` (the one played) is clip 0; expressions come from animations[0] as well.
 * - Vrm10AnimationInstance.Initialize -> InitRotationPoseProvider -> BoneInitialRotation
 *   .NormalizedLocalRotation: the pose is each human bone's own localRotation against its rest, so
 *   tracks of other nodes (animated intermediate nodes too) change nothing, as in three-vrm.
 * - Assets/UniGLTF/Runtime/UniGLTF/IO/GltfData.cs, FlatternFloatArrayFromAccessor and
 *   GetArrayFromAccessor<float> (used by AnimationIO/Import/AnimationImporterUtil.cs): the accessor's
 *   bytes are reinterpreted as 32-bit floats whatever its componentType, so integer tracks are garbage.
 *   (The same file skips a channel whose node index is past the end, with a warning.)
 */
function univrmFindings(raw: Raw, m: Motion, gaze: boolean, add: (f: CompatFinding) => void): void {
  const nodes = (Array.isArray(raw.json.nodes) ? raw.json.nodes : []) as GltfNode[];
  const nameOf = (n: number) => ((nodes[n] as Json)?.name as string | undefined) ?? `node ${n}`;
  const face = new Set<number>(m.expressions.map((e) => e.node));
  const lookAt = raw.ext.lookAt?.node as number | undefined;
  const roots = Array.isArray(raw.json.scenes?.[0]?.nodes) ? (raw.json.scenes[0].nodes as number[]) : [];
  if (roots.length > 1) {
    const parent = parentIndices(nodes);
    const rootOf = (n: number) => {
      const seen = new Set<number>();
      while (parent[n] !== -1 && !seen.has(n)) {
        seen.add(n);
        n = parent[n];
      }
      return n;
    };
    // Expression nodes are read by index before the cut; the gaze node is not read anywhere (noGaze).
    const outside = [...new Set(raw.channels.map((c) => c.node))].filter((n) => !face.has(n) && n !== lookAt && rootOf(n) !== roots[0]);
    if (outside.length) {
      const names = outside.map(nameOf);
      add({
        reader: 'univrm',
        level: 'differs',
        code: 'outsideFirstRoot',
        params: { count: outside.length, nodes: list(names) },
        text: `reads the first root of scenes[0] only: ${outside.length} animated node(s) outside it are not read (${list(names)})`,
      });
    }
  }
  // Deleting the animated expression nodes moves every later node down one place per deletion: a bone
  // or an animated node after the first of them is read as another node (or dropped past the end).
  const deleted = [...new Set(raw.channels.filter((c) => face.has(c.node)).map((c) => c.node))];
  if (deleted.length) {
    const first = Math.min(...deleted);
    const bones = Object.values<Json>(raw.ext.humanoid?.humanBones ?? {}).flatMap((b) => (typeof b?.node === 'number' ? [b.node as number] : []));
    const shifted = [...new Set([...bones, ...raw.channels.map((c) => c.node)])].filter((n) => n > first && !face.has(n) && n !== lookAt).sort((a, b) => a - b);
    if (shifted.length) {
      const names = shifted.map(nameOf);
      add({
        reader: 'univrm',
        level: 'fails',
        code: 'shiftedNodes',
        params: { count: shifted.length, nodes: list(names) },
        text: `deletes the animated expression nodes before loading and does not renumber the rest: ${shifted.length} bone or animated node(s) after them (${list(names)}) are read as other nodes`,
      });
    }
  }
  const eyes = (['leftEye', 'rightEye'] as const).filter((b) => raw.channels.some((c) => c.node === m.humanoid.boneToNode[b]));
  if (eyes.length) add({ reader: 'univrm', level: 'differs', code: 'eyeTracksIgnored', params: { bones: list(eyes) }, text: `maps no eye bones: the ${list(eyes)} tracks are not played` });
  if (lookAt !== undefined) face.add(lookAt);
  if (m.lookAtNode !== undefined) face.add(m.lookAtNode);
  const other = raw.channels.filter((c) => !m.humanoid.nodeToBone.has(c.node) && !face.has(c.node)).length;
  const intermediate = animatedIntermediateNodes(m).length > 0;
  if (other)
    add({
      reader: 'univrm',
      level: 'differs',
      code: 'otherTracks',
      params: { count: other },
      text: `plays humanoid tracks only: ${other} track(s) of other nodes are not played`,
      ...(intermediate ? { fix: 'bake-intermediate' as const } : {}),
    });
  if (gaze) add({ reader: 'univrm', level: 'differs', code: 'noGaze', params: {}, text: 'does not import the gaze' });
  const accessors = (Array.isArray(raw.json.accessors) ? raw.json.accessors : []) as Json[];
  const samplers = (Array.isArray(raw.json.animations?.[0]?.samplers) ? raw.json.animations[0].samplers : []) as Json[];
  const ints = samplers.filter((s) => [s.input, s.output].some((a) => typeof a === 'number' && accessors[a] && accessors[a].componentType !== 5126)).length;
  if (ints)
    add({
      reader: 'univrm',
      level: 'fails',
      code: 'quantized',
      params: { count: ints },
      text: `reads every accessor as 32-bit floats whatever its type: ${ints} track(s) of this quantized file are integers, so they come out as garbage (write it without --quantize)`,
      fix: 'float',
    });
}

/** Every finding on the file, spec rules first, then per reader. Throws MotionError when the bytes are not a VRM Animation at all. */
export function checkCompatibility(bytes: Uint8Array): CompatFinding[] {
  const raw = rawOf(bytes);
  // readVrma keeps views into its input: it gets its own copy.
  const motion = readVrma(bytes.slice());
  const out: CompatFinding[] = [];
  const add = (f: CompatFinding) => out.push(f);
  specFindings(raw, motion, add);
  playerFindings(raw, motion, add);
  return COMPAT_READERS.flatMap((r) => out.filter((f) => f.reader === r));
}
