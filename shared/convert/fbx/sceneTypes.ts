/**
 * The FBX scene as the readers hand it on (models, curves, curve nodes, layers, stacks, globals), apart
 * from scene.ts so the stack and 6.1-take readers that build these can depend on them without depending
 * on the scene reader that calls them.
 */
import type { MotionWarning } from '../../warnings';
import type { Mat4 } from '../../motion/types';

export interface FbxModel {
  readonly id: string;
  readonly name: string;
  /** LimbNode, Null, Root, Mesh, ... */
  readonly type: string;
  /** Parent model id, or null under the scene root. */
  parent: string | null;
  readonly children: string[];
  /** Numeric Properties70 values by name ("Lcl Rotation" -> [x, y, z]). */
  readonly props: ReadonlyMap<string, readonly number[]>;
}

export interface FbxCurve {
  readonly id: string;
  /** Key times in FBX ticks. */
  readonly times: Float64Array;
  readonly values: Float64Array;
  /** Per-key interpolation: 0 constant, 1 linear, 2 cubic (Hermite on the stored slopes), 3 constant at the next key's value. */
  readonly interpolation: Uint8Array;
  /** Per-key right slope and the next key's left slope (value per second), for cubic keys. */
  readonly slopes: Float64Array;
  readonly defaultValue: number;
}

export interface FbxCurveNode {
  readonly id: string;
  /** 'T', 'R', 'S' or another property name (DeformPercent). */
  readonly channel: string;
  /** Model (or blend shape channel) this node drives, and the property name. */
  readonly target: string;
  readonly property: string;
  /** Curves per component (d|X, d|Y, d|Z, d|DeformPercent). */
  readonly curves: ReadonlyMap<string, FbxCurve>;
  /** Default values per component. */
  readonly defaults: ReadonlyMap<string, number>;
}

/** How a layer combines with the layers before it (FbxAnimLayer::BlendMode). */
export type FbxBlendMode = 'additive' | 'override' | 'passthrough';

export interface FbxLayer {
  readonly id: string;
  readonly name: string;
  /** Weight 0..1 (the file's 0..100); `weightCurve` when it is animated (values 0..100). */
  readonly weight: number;
  readonly weightCurve?: FbxCurve;
  readonly blend: FbxBlendMode;
  /** RotationAccumulationMode 1: Euler components add; 0 (default): rotations compose as quaternions. */
  readonly rotationByChannel: boolean;
  /** ScaleAccumulationMode 1: scales add; 0 (default): they multiply (weight as the exponent). */
  readonly scaleAdditive: boolean;
  readonly mute: boolean;
  readonly solo: boolean;
  readonly curveNodes: readonly FbxCurveNode[];
}

export interface FbxStack {
  readonly id: string;
  readonly name: string;
  /** Start and stop in ticks (LocalStart/LocalStop, else the keys' range). */
  readonly start: number;
  readonly stop: number;
  /** Curve nodes of every layer, in layer order. */
  readonly curveNodes: readonly FbxCurveNode[];
  /** The stack's layers in file order, the first being the base (blended by layers.ts). */
  readonly layers: readonly FbxLayer[];
  readonly layerCount: number;
}

export interface FbxGlobals {
  readonly upAxis: number;
  readonly upSign: number;
  readonly frontAxis: number;
  readonly frontSign: number;
  readonly coordAxis: number;
  readonly coordSign: number;
  /** Centimetres per file unit. */
  readonly unitScale: number;
  /** Frame rate of TimeMode (CustomFrameRate for custom), undefined when not set. */
  readonly fps?: number;
}

export interface FbxScene {
  readonly version: number;
  readonly models: ReadonlyMap<string, FbxModel>;
  readonly globals: FbxGlobals;
  /** World bind matrices by model id (file axes and units). */
  readonly bindPose: ReadonlyMap<string, Mat4>;
  readonly stacks: readonly FbxStack[];
  /** Blend shape channel names by id (targets of DeformPercent curves). */
  readonly blendShapeChannels: ReadonlyMap<string, string>;
  readonly warnings: readonly MotionWarning[];
}

export const TICKS_PER_SECOND = 46186158000;
