/**
 * The one set of 3-vector helpers on plain [x, y, z] tuples (setup code, geometry of rest skeletons);
 * hot loops work on typed arrays with the flat quaternion kernel in ./quat. The names end in 3 so they
 * never shadow the quaternion functions of the same name. Results are mutable tuples.
 */
type V = ArrayLike<number>;
export type Vec3Out = [number, number, number];

export function add3(a: V, b: V): Vec3Out {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

export function sub3(a: V, b: V): Vec3Out {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function scale3(a: V, s: number): Vec3Out {
  return [a[0] * s, a[1] * s, a[2] * s];
}

export function dot3(a: V, b: V): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross3(a: V, b: V): Vec3Out {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function length3(a: V): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/** a / |a|; the zero vector stays zero. */
export function normalize3(a: V): Vec3Out {
  const n = length3(a);
  return n > 0 ? [a[0] / n, a[1] / n, a[2] / n] : [0, 0, 0];
}

export function lerp3(a: V, b: V, t: number): Vec3Out {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}
