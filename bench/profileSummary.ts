/**
 * What a CPU profile (Chromium's .cpuprofile, as testkit/pageProbe.ts profiled writes them) spent its
 * time in: the functions with the most self time and the most total time (self plus callees), in ms.
 *   node --import tsx bench/profileSummary.ts FILE.cpuprofile [rows]
 */
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
export interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A profile node as `name file:line`. */
export const where = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;

export function summarize(profile: Profile, rows = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  // A sample's time is the delta to the next sample (the last one has none).
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const selfBy = new Map<string, number>(), totalBy = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    selfBy.set(where(n), (selfBy.get(where(n)) ?? 0) + ms);
    // Each function on the stack once (recursion counted once).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const w = where(byId.get(at)!);
      if (seen.has(w)) continue;
      seen.add(w);
      totalBy.set(w, (totalBy.get(w) ?? 0) + ms);
    }
  }
  const busy = [...self].filter(([id]) => !/^\((idle|program|garbage collector|root)\)/.test(byId.get(id)!.callFrame.functionName)).reduce((s, [, ms]) => s + ms, 0);
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([w, ms]) => `${ms.toFixed(1).padStart(9)}  ${w}`).join('\n');
  const gc = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(garbage collector)').reduce((s, [, ms]) => s + ms, 0);
  return `script ${busy.toFixed(1)} ms, gc ${gc.toFixed(1)} ms\n-- self --\n${top(selfBy)}\n-- total --\n${top(totalBy)}`;
}

if (process.argv[1]?.endsWith('profileSummary.ts')) {
  const [file, rows] = process.argv.slice(2);
  console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, rows ? Number(rows) : 25));
}
