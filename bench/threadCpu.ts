/**
 * Where a browser's CPU goes, thread by thread: utime+stime ticks of every thread of the Chromium
 * processes under this Node process, keyed "process type / thread name" (renderer/CrRendererMain,
 * gpu-process/…, a worker's DedicatedWorker thread), from /proc (Linux only; empty elsewhere). Two
 * snapshots subtracted give the CPU seconds each kind of thread spent between them: the capture
 * benches print it to show which stage bounds a frame (the page's models, the GPU process's
 * software GL, the media threads' decoding, the compositor).
 */
import { readFileSync, readdirSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on Linux

function descendants(rootPid: number): number[] {
  const parent = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* ended meanwhile */
    }
  }
  return [...parent.keys()].filter((pid) => {
    for (let p: number | undefined = parent.get(pid), hops = 0; p && hops < 64; p = parent.get(p), hops++) if (p === rootPid) return true;
    return false;
  });
}

/** Ticks per "type/thread" of the Chromium processes under rootPid (thread names with their digits dropped, so a pool's threads add up). */
export function threadTicks(rootPid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of descendants(rootPid)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(cmd.split('\0')[0])) continue;
      const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${type}/${name}`;
        out.set(key, (out.get(key) ?? 0) + Number(rest[11]) + Number(rest[12]));
      }
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** CPU seconds per "type/thread" between two snapshots, largest first, those under `minSeconds` left out. */
export function threadSeconds(before: Map<string, number>, after: Map<string, number>, minSeconds = 0.05): [string, number][] {
  return [...after]
    .map(([k, t]) => [k, (t - (before.get(k) ?? 0)) / CLOCK_TICKS] as [string, number])
    .filter(([, s]) => s >= minSeconds)
    .sort((a, b) => b[1] - a[1]);
}
