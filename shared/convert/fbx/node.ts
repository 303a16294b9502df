/**
 * The FBX document tree both encodings (binary and ASCII) parse into: named records with a list of
 * property values and child records. Arrays decode on first use, so a file's meshes (most of its
 * bytes) cost nothing when only the skeleton and its animation are read.
 */
import { fail } from '../../errors';
import { readBudget, type ReadBudget } from '../../readBudget';

/** A numeric array property ('f' 'd' 'i' 'l' 'b' in binary, `*N { a: ... }` in ASCII). */
export interface FbxArray {
  readonly kind: 'array';
  /** Element count as declared. */
  readonly length: number;
  /** Decoded values (int64 as doubles: KeyTime ticks stay exact below 2^53). Throws MotionError on a bad encoding. */
  values(): Float64Array;
}

/** int64 values that do not fit a double exactly are kept as bigint (object ids). */
export type FbxValue = number | bigint | string | boolean | Uint8Array | FbxArray;

export interface FbxNode {
  readonly name: string;
  readonly props: readonly FbxValue[];
  readonly children: readonly FbxNode[];
}

export interface FbxDocument {
  /** 7400, 7500, 6100 ... */
  readonly version: number;
  readonly binary: boolean;
  /** Top-level records (FBXHeaderExtension, GlobalSettings, Objects, Connections, Takes ...). */
  readonly nodes: readonly FbxNode[];
  /** What reading this file may still decode, walk and compute (shared by the arrays, the scene and the takes). */
  readonly budget: ReadBudget;
}

/**
 * Records one file may hold, in either encoding. A record costs ~60-100 bytes of heap whatever it
 * takes on disk, so an ASCII file of 3-byte "a:" lines (80 MB: 26 M records) ran its worker out of
 * memory after 53 s (issue 24, finding 1); real files hold tens of thousands (a mesh's data is one
 * array record, an animation curve about ten), and 1 M records stay near 150 MB.
 */
export const MAX_FBX_RECORDS = 1 << 20;

/** Counts the records a parse creates; refuses the file (TOO_LARGE) at the first past MAX_FBX_RECORDS. */
export function recordCounter(): (where: string) => void {
  let records = 0;
  return (_where) => {
    if (++records > MAX_FBX_RECORDS) fail('TOO_LARGE', 'fbx.tooManyRecords', { max: MAX_FBX_RECORDS });
  };
}

/** 8 numbers per file byte, at least 8 M: what decoded arrays, scene paths and take frames share. */
export function fbxBudget(fileBytes: number): ReadBudget {
  return readBudget(fileBytes, 8, 1 << 23);
}

export function child(node: FbxNode | undefined, name: string): FbxNode | undefined {
  return node?.children.find((c) => c.name === name);
}

export function childrenNamed(node: FbxNode | undefined, name: string): FbxNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

export function isArray(v: FbxValue | undefined): v is FbxArray {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && (v as FbxArray).kind === 'array';
}

/** A node's numeric array: its first property when it is an array (binary, ASCII 7.x), else its numbers (ASCII 6.1). */
export function arrayOf(node: FbxNode | undefined, _what: string): Float64Array | undefined {
  if (!node) return undefined;
  const first = node.props[0];
  if (isArray(first)) return first.values();
  const out = new Float64Array(node.props.length);
  for (let i = 0; i < node.props.length; i++) {
    const v = node.props[i];
    const n = typeof v === 'bigint' ? Number(v) : v;
    if (typeof n !== 'number') fail('BAD_FBX', 'fbx.notNumber', { element: i, record: node.name });
    out[i] = n;
  }
  return out;
}

export function numberOf(v: FbxValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** Object ids compare as decimal strings (binary int64, ASCII digits alike). */
export function idOf(v: FbxValue | undefined): string | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
  return undefined;
}

export function stringOf(v: FbxValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** "Hips\0\1Model" (binary) or "Model::Hips" (ASCII) -> "Hips". */
export function objectName(raw: FbxValue | undefined): string {
  const s = stringOf(raw) ?? '';
  const nul = s.indexOf('\u0000\u0001');
  if (nul >= 0) return s.slice(0, nul);
  const colons = s.indexOf('::');
  return colons >= 0 ? s.slice(colons + 2) : s;
}

/** Numeric Properties70 (7.x) and Properties60 (6.1) values by name ("Lcl Rotation" -> [x, y, z]). */
export function readProps(node: FbxNode): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const p70 = child(node, 'Properties70');
  if (p70) {
    for (const p of childrenNamed(p70, 'P')) {
      const name = stringOf(p.props[0]);
      if (!name) continue;
      const values: number[] = [];
      for (let i = 4; i < p.props.length; i++) {
        const v = numberOf(p.props[i]);
        if (v !== undefined) values.push(v);
      }
      out.set(name, values);
    }
  }
  const p60 = child(node, 'Properties60');
  if (p60) {
    for (const p of childrenNamed(p60, 'Property')) {
      const name = stringOf(p.props[0]);
      if (!name) continue;
      const values: number[] = [];
      for (let i = 3; i < p.props.length; i++) {
        const v = numberOf(p.props[i]);
        if (v !== undefined) values.push(v);
      }
      out.set(name, values);
    }
  }
  return out;
}
