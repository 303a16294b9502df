/**
 * FBX node transforms as the FBX SDK defines them:
 *   Local = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
 * with R the Euler rotation in the node's RotationOrder (degrees; eEulerXYZ applies X first, so its
 * matrix is Rz·Ry·Rx), PreRotation/PostRotation always XYZ, and world = parent world · local for
 * InheritType RSrs (1, and RrSs 0, whose shear difference is not modelled); for Rrs (2, Maya's
 * segment scale compensation) the parent's scale moves the child's origin but does not scale the child. The axis system
 * (UpAxis/FrontAxis/CoordAxis and signs) and UnitScaleFactor become one root matrix taking the file's
 * world into Y-up metres.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Mat4, Quat, Vec3 } from '../../motion/types';
import { compose, multiply } from '../../math/mat4';
import { conj, IDENTITY, mul } from '../../math/quat';
import { fromEuler } from '../../math/euler';
import type { FbxGlobals, FbxModel } from './sceneTypes';

const DEG = Math.PI / 180;
/** RotationOrder enum (eEulerXYZ, XZY, YZX, YXZ, ZXY, ZYX, SphericXYZ) as a product order for fromEuler. */
const ORDERS = ['ZYX', 'YZX', 'XZY', 'ZXY', 'YXZ', 'XYZ', 'ZYX'];

export function eulerToQuat(deg: ArrayLike<number>, order: number): Quat {
  return fromEuler(ORDERS[order] ?? 'ZYX', { X: deg[0] * DEG, Y: deg[1] * DEG, Z: deg[2] * DEG });
}

/** The static parts of a model's transform, read once. */
export interface TransformParts {
  readonly translation: Vec3;
  readonly rotation: Vec3;
  readonly scaling: Vec3;
  readonly rotationOrder: number;
  readonly pre: Quat;
  readonly postInverse: Quat;
  readonly rotationOffset: Vec3;
  readonly rotationPivot: Vec3;
  readonly scalingOffset: Vec3;
  readonly scalingPivot: Vec3;
  /** True when no offset or pivot is set (the common case: T·Rpre·R·Rpost⁻¹·S). */
  readonly simple: boolean;
  /** 0 RrSs, 1 RSrs, 2 Rrs. */
  readonly inheritType: number;
}

function vec(m: FbxModel, name: string, d: number): Vec3 {
  const v = m.props.get(name);
  const ok = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : d);
  return v ? [ok(v[0]), ok(v[1]), ok(v[2])] : [d, d, d];
}

export function transformParts(m: FbxModel): TransformParts {
  const rotationActive = (m.props.get('RotationActive')?.[0] ?? 1) !== 0;
  const orderRaw = m.props.get('RotationOrder')?.[0] ?? 0;
  const rotationOrder = rotationActive && orderRaw >= 0 && orderRaw <= 6 ? Math.floor(orderRaw) : 0;
  const pre = rotationActive ? eulerToQuat(vec(m, 'PreRotation', 0), 0) : IDENTITY;
  const post = rotationActive ? eulerToQuat(vec(m, 'PostRotation', 0), 0) : IDENTITY;
  const rotationOffset = vec(m, 'RotationOffset', 0);
  const rotationPivot = vec(m, 'RotationPivot', 0);
  const scalingOffset = vec(m, 'ScalingOffset', 0);
  const scalingPivot = vec(m, 'ScalingPivot', 0);
  const zero = (v: Vec3) => v[0] === 0 && v[1] === 0 && v[2] === 0;
  return {
    translation: vec(m, 'Lcl Translation', 0),
    rotation: vec(m, 'Lcl Rotation', 0),
    scaling: vec(m, 'Lcl Scaling', 1),
    rotationOrder,
    pre,
    postInverse: conj(post),
    rotationOffset,
    rotationPivot,
    scalingOffset,
    scalingPivot,
    simple: zero(rotationOffset) && zero(rotationPivot) && zero(scalingOffset) && zero(scalingPivot),
    inheritType: m.props.get('InheritType')?.[0] ?? 1,
  };
}

const ONE: Vec3 = [1, 1, 1];
const ZERO: Vec3 = [0, 0, 0];
const neg = (v: Vec3): Vec3 => [-v[0], -v[1], -v[2]];
const translate = (v: Vec3): Mat4 => compose(v, IDENTITY, ONE);

/** Local matrix for the given T, R (degrees in the model's order, or a quaternion: layers.ts composes some) and S. */
export function localMatrix(p: TransformParts, t: Vec3, rDeg: Vec3 | Quat, s: Vec3): Mat4 {
  const r = rDeg.length === 4 ? rDeg : eulerToQuat(rDeg, p.rotationOrder);
  // q = Rpre · R · Rpost⁻¹
  const q = mul(mul(p.pre, r), p.postInverse);
  if (p.simple) return compose(t, q, s);
  let m = translate(t);
  m = multiply(m, translate(p.rotationOffset));
  m = multiply(m, translate(p.rotationPivot));
  m = multiply(m, compose(ZERO, q, ONE));
  m = multiply(m, translate(neg(p.rotationPivot)));
  m = multiply(m, translate(p.scalingOffset));
  m = multiply(m, translate(p.scalingPivot));
  m = multiply(m, compose(ZERO, IDENTITY, s));
  return multiply(m, translate(neg(p.scalingPivot)));
}

/**
 * File world -> Y-up, right-handed, metres: the file's coord/up/front axes (with signs) become
 * X/Y/Z, scaled by UnitScaleFactor/100. A left-handed axis system is mirrored on X to stay a rotation
 * (and reported).
 */
export function axisMatrix(g: FbxGlobals, warnings: MotionWarning[]): Mat4 {
  const s = g.unitScale / 100;
  const row = (axis: number, sign: number): [number, number, number] => {
    const r: [number, number, number] = [0, 0, 0];
    r[axis] = sign * s;
    return r;
  };
  const x = row(g.coordAxis, g.coordSign);
  const y = row(g.upAxis, g.upSign);
  const z = row(g.frontAxis, g.frontSign);
  const det = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) + x[2] * (y[0] * z[1] - y[1] * z[0]);
  if (det < 0) {
    warnings.push(warning('the file uses a left-handed axis system; mirrored on X', 'fbx.leftHanded'));
    x[0] = -x[0];
    x[1] = -x[1];
    x[2] = -x[2];
  }
  // Column-major: column c holds where file axis c goes; rows are the new axes.
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, 0, 0, 0, 1];
}

/** World matrix of a child from its parent's world and its local matrix, by the child's InheritType. */
export function childWorld(parent: Mat4, local: Mat4, inheritType: number): Mat4 {
  const m = multiply(parent, local);
  if (inheritType !== 2) return m;
  // Rrs: linear part = parent's rotation (scale removed) · local linear part; origin as usual.
  const sx = Math.hypot(parent[0], parent[1], parent[2]) || 1;
  const sy = Math.hypot(parent[4], parent[5], parent[6]) || 1;
  const sz = Math.hypot(parent[8], parent[9], parent[10]) || 1;
  const pn: Mat4 = [parent[0] / sx, parent[1] / sx, parent[2] / sx, 0, parent[4] / sy, parent[5] / sy, parent[6] / sy, 0, parent[8] / sz, parent[9] / sz, parent[10] / sz, 0, 0, 0, 0, 1];
  const lin = multiply(pn, [local[0], local[1], local[2], 0, local[4], local[5], local[6], 0, local[8], local[9], local[10], 0, 0, 0, 0, 1]);
  return [lin[0], lin[1], lin[2], 0, lin[4], lin[5], lin[6], 0, lin[8], lin[9], lin[10], 0, m[12], m[13], m[14], 1];
}
