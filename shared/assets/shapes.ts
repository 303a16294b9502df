/**
 * Low-poly convex shapes for the generated mannequin. Every shape of a given kind and resolution has
 * the same topology whatever its size, so two shapes built with different sizes differ only in
 * positions: that difference is a morph target.
 */
import type { Vec3 } from '../motion/types';
import { cross3, normalize3 } from '../math/vec3';

export interface Shape {
  /** xyz per vertex, in the frame the caller builds the mesh in. */
  readonly positions: number[];
  readonly indices: number[];
}

/**
 * Rings of vertices around an axis plus one pole vertex at each end. `rings[k]` gives, for ring k,
 * its centre and its two half-axes (vectors). Triangles are wound counter-clockwise seen from
 * outside, as glTF front faces are.
 */
function lathe(south: Vec3, north: Vec3, rings: readonly { c: Vec3; a: Vec3; b: Vec3 }[], segments: number): Shape {
  const positions: number[] = [...south];
  for (const { c, a, b } of rings) {
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const ca = Math.cos(phi);
      const sb = Math.sin(phi);
      positions.push(c[0] + a[0] * ca + b[0] * sb, c[1] + a[1] * ca + b[1] * sb, c[2] + a[2] * ca + b[2] * sb);
    }
  }
  positions.push(...north);
  const indices: number[] = [];
  const ring = (k: number, s: number) => 1 + k * segments + (s % segments);
  const last = rings.length - 1;
  const northIndex = 1 + rings.length * segments;
  for (let s = 0; s < segments; s++) {
    indices.push(0, ring(0, s + 1), ring(0, s));
    for (let k = 0; k < last; k++) {
      indices.push(ring(k, s), ring(k, s + 1), ring(k + 1, s + 1));
      indices.push(ring(k, s), ring(k + 1, s + 1), ring(k + 1, s));
    }
    indices.push(ring(last, s), ring(last, s + 1), northIndex);
  }
  return orientOutward({ positions, indices }, rings[0].c);
}

/**
 * Makes the winding face outward. The lathe winds every triangle the same way round its axis, so
 * one band triangle tells whether all of them point out (away from the ring's centre).
 */
function orientOutward(shape: Shape, ringCentre: Vec3): Shape {
  const p = shape.positions;
  const idx = shape.indices;
  // Triangle 1 is the first band triangle (triangle 0 touches the pole, which may be on the axis).
  const t = idx.length > 3 ? 3 : 0;
  const a = idx[t] * 3, b = idx[t + 1] * 3, c = idx[t + 2] * 3;
  const n = cross3([p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]], [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]]);
  const out = n[0] * (p[a] - ringCentre[0]) + n[1] * (p[a + 1] - ringCentre[1]) + n[2] * (p[a + 2] - ringCentre[2]);
  if (out < 0) {
    for (let i = 0; i < idx.length; i += 3) {
      const swap = idx[i + 1];
      idx[i + 1] = idx[i + 2];
      idx[i + 2] = swap;
    }
  }
  return shape;
}

/** Axis-aligned ellipsoid. */
export function ellipsoid(center: Vec3, radii: Vec3, segments = 12, rings = 7): Shape {
  const list: { c: Vec3; a: Vec3; b: Vec3 }[] = [];
  for (let k = 1; k <= rings; k++) {
    const theta = Math.PI * (k / (rings + 1)) - Math.PI / 2;
    const s = Math.cos(theta);
    list.push({ c: [center[0], center[1] + radii[1] * Math.sin(theta), center[2]], a: [radii[0] * s, 0, 0], b: [0, 0, -radii[2] * s] });
  }
  return lathe([center[0], center[1] - radii[1], center[2]], [center[0], center[1] + radii[1], center[2]], list, segments);
}

/**
 * A capsule from `a` to `b` whose elliptic cross-section tapers from `ra` to `rb` ([along `hint`,
 * across]) with rounded ends; the body segments of the mannequin.
 */
export function capsule(a: Vec3, b: Vec3, ra: readonly [number, number], rb: readonly [number, number], hint: Vec3, segments = 10, capRings = 3): Shape {
  const d = normalize3([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
  const h = hint[0] * d[0] + hint[1] * d[1] + hint[2] * d[2];
  const u = normalize3([hint[0] - d[0] * h, hint[1] - d[1] * h, hint[2] - d[2] * h]);
  const v = cross3(d, u);
  const list: { c: Vec3; a: Vec3; b: Vec3 }[] = [];
  const capA = Math.min(ra[0], ra[1]);
  const capB = Math.min(rb[0], rb[1]);
  const ringAt = (base: Vec3, r: readonly [number, number], along: number, scale: number) => ({
    c: [base[0] + d[0] * along, base[1] + d[1] * along, base[2] + d[2] * along] as Vec3,
    a: [u[0] * r[0] * scale, u[1] * r[0] * scale, u[2] * r[0] * scale] as Vec3,
    b: [v[0] * r[1] * scale, v[1] * r[1] * scale, v[2] * r[1] * scale] as Vec3,
  });
  for (let k = 1; k <= capRings; k++) {
    const alpha = (Math.PI / 2) * (k / capRings);
    list.push(ringAt(a, ra, -capA * Math.cos(alpha), Math.sin(alpha)));
  }
  for (let k = capRings; k >= 1; k--) {
    const alpha = (Math.PI / 2) * (k / capRings);
    list.push(ringAt(b, rb, capB * Math.cos(alpha), Math.sin(alpha)));
  }
  const south: Vec3 = [a[0] - d[0] * capA, a[1] - d[1] * capA, a[2] - d[2] * capA];
  const north: Vec3 = [b[0] + d[0] * capB, b[1] + d[1] * capB, b[2] + d[2] * capB];
  return lathe(south, north, list, segments);
}

/** Area-weighted vertex normals, unit length (glTF requires unit normals). */
export function vertexNormals(positions: Float32Array, indices: Uint16Array): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    normals[a] += nx;
    normals[a + 1] += ny;
    normals[a + 2] += nz;
    normals[b] += nx;
    normals[b + 1] += ny;
    normals[b + 2] += nz;
    normals[c] += nx;
    normals[c + 1] += ny;
    normals[c + 2] += nz;
  }
  for (let i = 0; i < normals.length; i += 3) {
    const n = Math.hypot(normals[i], normals[i + 1], normals[i + 2]);
    if (n > 0) {
      normals[i] /= n;
      normals[i + 1] /= n;
      normals[i + 2] /= n;
    } else {
      normals[i + 1] = 1;
    }
  }
  return normals;
}
