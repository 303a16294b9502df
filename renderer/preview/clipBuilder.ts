/**
 * Builds the preview clip straight from a Motion, producing the same tracks that
 * three-vrm-animation's loader + createVRMAnimationClip produce from the written file (a browser
 * test compares the two poses). Tracks are cached per Channel object: edits share untouched
 * channels, so after an edit only the changed channels are converted again.
 */
import * as THREE from 'three';
import type { VRM } from '@pixiv/three-vrm';
import type { Channel, Motion, RestBone } from '../../shared/motion/types';
import { componentsOf, durationOf } from '../../shared/motion/types';
import { hipsTranslationScale } from '../../shared/vrma/restPose';
import { conj, sandwichAll } from '../../shared/math/quat';
import { vrmBone } from '../avatar/boneNames';
import { bakedLinear } from '../../shared/vrma/samplerForm';
import { spliceOf } from '../../shared/motion/channelDiff';
import { kindsOf } from '../../shared/motion/interpolation';

const LOOKAT_PROXY_NAME = 'VRMLookAtQuaternionProxy';

export class ClipBuilder {
  private cache = new WeakMap<Channel, THREE.KeyframeTrack | null>();
  private lastRest: Motion['rest'] | null = null;
  private lastExpressions: Motion['expressions'] | null = null;

  constructor(private readonly vrm: VRM, private readonly metaVersion: '0' | '1') {}

  build(motion: Motion): THREE.AnimationClip {
    // A channel's track depends on the rest pose and expression map too; a different file means a fresh cache.
    if (motion.rest !== this.lastRest || motion.expressions !== this.lastExpressions) {
      this.cache = new WeakMap();
      this.lastRest = motion.rest;
      this.lastExpressions = motion.expressions;
    }
    const tracks: THREE.KeyframeTrack[] = [];
    for (const channel of motion.channels) {
      let track = this.cache.get(channel);
      if (track === undefined) {
        track = this.splicedTrack(motion, channel) ?? this.trackFor(motion, channel);
        this.cache.set(channel, track);
      }
      if (track) tracks.push(track);
    }
    return new THREE.AnimationClip('Clip', durationOf(motion), tracks);
  }

  /**
   * The track of a channel an edit made from one already converted (channelDiff.ts spliceOf): that
   * one's converted keys before and after the changed ones, and only the changed keys converted (each
   * key converts on its own). Undefined where that does not apply, or where the track shares the
   * channel's arrays anyway (identity rest rotations, the gaze: nothing to convert). The changed keys
   * may be none (a key deleted): only their values are converted, never a track of them (three.js
   * refuses a track without keys; that throw left the preview on the motion before the delete).
   */
  private splicedTrack(motion: Motion, channel: Channel): THREE.KeyframeTrack | undefined {
    const s = spliceOf(channel);
    if (!s || s.tail === undefined || kindsOf(channel) || kindsOf(s.from)) return undefined;
    const old = this.cache.get(s.from);
    const form = old && this.formOf(motion, channel);
    if (!old || !form || old.name !== form.name) return undefined;
    const size = componentsOf(channel.path);
    const end = channel.times.length - (s.from.times.length - s.tail);
    if (end < s.head) return undefined;
    const sub = channel.values.subarray(s.head * size, end * size);
    const mid = form.convert(sub);
    if (mid === sub) return undefined;
    const k = old.getValueSize();
    const values = new Float32Array(channel.times.length * k);
    values.set(old.values.subarray(0, s.head * k));
    values.set(mid, s.head * k);
    values.set(old.values.subarray(s.tail * k), end * k);
    return new form.Track(form.name, channel.times, values);
  }

  private trackFor(motion: Motion, source: Channel): THREE.KeyframeTrack | null {
    // three's tracks interpolate one way each; STEP and cubic keys play as LINEAR keys that match them.
    const channel: Channel = { node: source.node, path: source.path, ...bakedLinear(source) };
    const form = this.formOf(motion, channel);
    return form && new form.Track(form.name, channel.times, form.convert(channel.values));
  }

  /**
   * What a channel plays as in the clip: the track's kind and name, and the conversion of its values
   * (key by key, so a run of keys converts alone; the input itself where nothing converts). Null for
   * a channel the avatar does not play.
   */
  private formOf(motion: Motion, channel: Channel): TrackForm | null {
    const flip = this.metaVersion === '0';
    const bone = motion.humanoid.nodeToBone.get(channel.node);
    if (bone !== undefined) {
      const nodeName = this.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone))?.name;
      const rest = motion.rest.bones[bone];
      if (!nodeName || !rest) return null;
      if (channel.path === 'rotation') {
        return { Track: THREE.QuaternionKeyframeTrack, name: `${nodeName}.quaternion`, convert: (v) => normalizedRotations(v, rest, flip) };
      }
      if (channel.path === 'translation' && bone === 'hips') {
        const humanoidY = this.vrm.humanoid.normalizedRestPose.hips?.position?.[1] ?? 1;
        const scale = hipsTranslationScale(motion.rest, humanoidY);
        return { Track: THREE.VectorKeyframeTrack, name: `${nodeName}.position`, convert: (v) => hipsPositions(v, motion.rest.hipsParentWorld, scale, flip) };
      }
      return null;
    }
    const expression = motion.expressions.find((e) => e.node === channel.node);
    if (expression) {
      if (channel.path !== 'translation' || !this.vrm.expressionManager) return null;
      const trackName = this.vrm.expressionManager.getExpressionTrackName(expression.name);
      if (!trackName) return null;
      return { Track: THREE.NumberKeyframeTrack, name: trackName, convert: weights };
    }
    if (channel.node === motion.lookAtNode && channel.path === 'rotation' && this.vrm.lookAt) {
      return { Track: THREE.QuaternionKeyframeTrack, name: `${LOOKAT_PROXY_NAME}.quaternion`, convert: (v) => v };
    }
    return null;
  }
}

interface TrackForm {
  readonly Track: new(name: string, times: Float32Array, values: Float32Array) => THREE.KeyframeTrack;
  readonly name: string;
  readonly convert: (values: Float32Array) => Float32Array;
}

/** An expression's weights: the x of its node's translation keys. */
function weights(values: Float32Array): Float32Array {
  const n = values.length / 3;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = values[i * 3];
  return out;
}

function isIdentity(q: readonly number[]): boolean {
  return q[0] === 0 && q[1] === 0 && q[2] === 0 && q[3] === 1;
}

/** P·q·W⁻¹ per key (doubles, stored as float32 as the loader does), with the VRM 0.x x/z flip. */
function normalizedRotations(values: Float32Array, rest: RestBone, flip: boolean): Float32Array {
  // A bone whose rest rotations are identity (files written in the normalized space, as this studio and
  // UniVRM write them) plays its own keys: the clip shares the motion's array instead of a copy
  // (16 bytes a key: 35 MB on the 10-minute motion). The mixer only reads it.
  if (!flip && isIdentity(rest.parentWorld) && isIdentity(rest.world)) return values;
  const out = sandwichAll(values, rest.parentWorld, conj(rest.world), new Float32Array(values.length));
  if (flip) {
    for (let i = 0; i < out.length; i += 4) {
      out[i] = -out[i];
      out[i + 2] = -out[i + 2];
    }
  }
  return out;
}

function hipsPositions(values: Float32Array, m: readonly number[], scale: number, flip: boolean): Float32Array {
  const out = new Float32Array(values.length);
  const s = flip ? -scale : scale;
  for (let i = 0; i < values.length; i += 3) {
    const x = values[i], y = values[i + 1], z = values[i + 2];
    const w = m[3] * x + m[7] * y + m[11] * z + m[15] || 1;
    out[i] = s * ((m[0] * x + m[4] * y + m[8] * z + m[12]) / w);
    out[i + 1] = (scale * (m[1] * x + m[5] * y + m[9] * z + m[13])) / w;
    out[i + 2] = s * ((m[2] * x + m[6] * y + m[10] * z + m[14]) / w);
  }
  return out;
}
