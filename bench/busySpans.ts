/**
 * The long tasks of a CPU profile (Chromium's .cpuprofile): runs of samples with no idle sample
 * between them that last at least `minMs`, each with the functions that took most of it (self time)
 * and its outermost named callers, so a long task seen by the 'longtask' observer can be named.
 *   node --import tsx bench/busySpans.ts FILE.cpuprofile [minMs]
 */
import { readFileSync } from 'node:fs';
import { type Profile, where } from './profileSummary';

export function busySpans(profile: Profile, minMs = 50, rows = 6): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const idle = (id: number) => ['(idle)', '(program)', '(root)'].includes(byId.get(id)!.callFrame.functionName);
  const out: string[] = [];
  let start = -1, t = 0, t0 = 0;
  const flush = (end: number, endT: number) => {
    const ms = (endT - t0) / 1000;
    if (start < 0 || ms < minMs) return;
    const self = new Map<string, number>(), top = new Map<string, number>();
    for (let i = start; i < end; i++) {
      const ms1 = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const id = profile.samples[i];
      self.set(where(byId.get(id)!), (self.get(where(byId.get(id)!)) ?? 0) + ms1);
      // The outermost frame under the root that has a script url: which task this was.
      let j = id, outer = id;
      while (parent.has(j)) {
        if (byId.get(j)!.callFrame.url) outer = j;
        j = parent.get(j)!;
      }
      top.set(where(byId.get(outer)!), (top.get(where(byId.get(outer)!)) ?? 0) + ms1);
    }
    const list = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([k, v]) => `${v.toFixed(1)} ${k}`).join('; ');
    out.push(`${ms.toFixed(0)} ms at +${(t0 / 1000).toFixed(0)} ms\n    self: ${list(self)}\n    from: ${list(top)}`);
  };
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (idle(profile.samples[i])) {
      flush(i, t);
      start = -1;
    } else if (start < 0) {
      start = i;
      t0 = t;
    }
  }
  flush(profile.samples.length, t);
  return out;
}

if (process.argv[1]?.endsWith('busySpans.ts')) {
  const [file, min] = process.argv.slice(2);
  for (const s of busySpans(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(min ?? 50))) console.log(s);
}
