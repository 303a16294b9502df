/**
 * One owner for quaternion and vector math: shared/math/quat.ts and shared/math/vec3.ts. This scans
 * shared/ and renderer/ for the copies issue 10 removed (helpers named like the kernel's, inlined
 * Hamilton products, hand-written slerps) so a new one is caught when it is written, not in review.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** What a copy looks like (one line each). */
const COPIES: [string, RegExp][] = [
  // Named like a kernel function and taking a vector or quaternion.
  [
    'a vector/quaternion helper defined outside shared/math',
    /^\s*(?:export\s+)?(?:function\s+|const\s+)(?:sub|add|scale|cross|dot|len|length|norm|unit|lerp|conj|conjugate|mul|multiply|quatMul|slerp|nlerp|rotateVec)(?:3|V|Quat|Vec|Into|Flat)?\s*(?:=\s*)?\(\s*\w+\s*:\s*(?:Vec3|Quat|V3|readonly number\[\]|number\[\]|ArrayLike<number>|Float32Array|Float64Array)\b/,
  ],
  // The first component of a Hamilton product, in this code's order (aw·bx + ax·bw + ay·bz − az·by) or three.js's.
  [
    'an inlined Hamilton product',
    /\b\w*w\w* \* \w*x\w* \+ \w*x\w* \* \w*w\w* \+ \w*y\w* \* \w*z\w* - \w*z\w* \* \w*y\w*|\b\w*x\w* \* \w*w\w* \+ \w*w\w* \* \w*x\w* \+ \w*y\w* \* \w*z\w* - \w*z\w* \* \w*y\w*/,
  ],
  ['a hand-written slerp', /Math\.sin\(\(1 - \w+\) \* \w+\)|Math\.sin\(\w+ \* theta\) \/|function \w*[sS]lerp\w*\(/],
];

function copiesIn(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const rel = relative(ROOT, file).split('\\').join('/');
    if (rel.startsWith('shared/math/')) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [what, re] of COPIES) if (re.test(line)) found.push(`${rel}:${i + 1}: ${what}: ${line.trim()}`);
      });
  }
  return found;
}

describe('one quaternion/vector kernel', () => {
  it('the scan recognises the copies it forbids', () => {
    const samples = [
      'function sub(a: Vec3, b: Vec3): Vec3 {',
      'const cross = (a: Vec3, b: Vec3): Vec3 => [',
      'export function conjugate(q: Quat): Quat {',
      '  out[o] = aw * bx + ax * bw + ay * bz - az * by;',
      '  const x = x0 * w1 + w0 * x1 + y0 * z1 - z0 * y1;',
      '    k0 = Math.sin((1 - u) * th) / s;',
      'function slerpInto(out, a, b, t) {',
    ];
    for (const s of samples) expect(COPIES.some(([, re]) => re.test(s)), s).toBe(true);
    for (const s of ['function normalizeRange(a: number)', 'const addEntry = () => {', 'function subscribe(cb) {', 'multiplyFlat(out, o, a, 0, b, 0);']) {
      expect(COPIES.some(([, re]) => re.test(s)), s).toBe(false);
    }
  });

  it('shared/ and renderer/ hold no copy of the kernel', () => {
    expect(copiesIn([...sources('shared'), ...sources('renderer')])).toEqual([]);
  });
});
