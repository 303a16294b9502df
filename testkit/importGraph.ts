/**
 * The repository's import graph, read from the sources as text, for the architecture tests: which
 * module specifiers a file imports, the relative edges between files below a folder, the folder
 * (layer) each file belongs to, and the cycles among files and among folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** Every module specifier a file imports (static, dynamic, require, export-from), comments left out. */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const stripped = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of stripped.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** One import between two files, as repository-relative paths without extension. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

const noExt = (p: string) => p.replace(/\.(ts|tsx|mts|cts|js|mjs|cjs)$/, '').replace(/\?.*$/, '');

/** The relative imports between files below `dir` (imports leaving `dir` are not edges here). */
export function importEdges(dir: string): ImportEdge[] {
  const base = join(ROOT, dir);
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(dir)) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = noExt(resolve(dirname(file), spec));
      if (!(target + '/').startsWith(base + '/')) continue;
      edges.push({ from: noExt(relative(ROOT, file)), to: relative(ROOT, target) });
    }
  }
  return edges;
}

/**
 * The layer of a file: the longest prefix of its path (below `dir`) that the table names, so a
 * table may place a folder and, where needed, a single file in it apart. `null` for unplaced files.
 */
export function layerOf(path: string, dir: string, table: readonly (readonly string[])[]): { rank: number; place: string } | null {
  const rel = relative(dir, path);
  let best: { rank: number; place: string } | null = null;
  table.forEach((places, rank) => {
    for (const place of places) {
      if ((rel === place || rel.startsWith(place + '/')) && (!best || place.length > best.place.length)) best = { rank, place };
    }
  });
  return best;
}

/** Edges that run from a lower layer up to a higher one ("back-arrows"), and files no layer places. */
export function layerViolations(edges: readonly ImportEdge[], dir: string, table: readonly (readonly string[])[]): string[] {
  const found = new Set<string>();
  for (const e of edges) {
    const a = layerOf(e.from, dir, table);
    const b = layerOf(e.to, dir, table);
    if (!a) found.add(`${e.from}: in no layer`);
    if (!b) found.add(`${e.to}: in no layer`);
    if (a && b && b.rank > a.rank) found.add(`${a.place} -> ${b.place} (${e.from} imports ${e.to})`);
  }
  return [...found].sort();
}

/** Strongly connected groups of more than one node (Tarjan, iterative so deep graphs do not overflow). */
export function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.from === e.to) continue;
    if (!next.has(e.from)) next.set(e.from, []);
    if (!next.has(e.to)) next.set(e.to, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const succ = next.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== top.node);
        if (group.length > 1) out.push(group.sort());
      }
    }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The folder-level edges of a file graph: each file's place in the table (files outside any place keep their path). */
export function placeEdges(edges: readonly ImportEdge[], dir: string, table: readonly (readonly string[])[]): { from: string; to: string }[] {
  const place = (p: string) => layerOf(p, dir, table)?.place ?? p;
  return edges.map((e) => ({ from: place(e.from), to: place(e.to) })).filter((e) => e.from !== e.to);
}
