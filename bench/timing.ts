/** Small timing helpers shared by the bench/*.bench.ts modules. */

export interface Timing {
  readonly label: string;
  /** Median milliseconds per run. */
  readonly ms: number;
  readonly runs: number;
}

/** Runs fn (after one warm-up) at least `minRuns` times and for at least `minMs`; returns the median. */
export async function timeIt(label: string, fn: () => unknown, opts: { minRuns?: number; minMs?: number } = {}): Promise<Timing> {
  const minRuns = opts.minRuns ?? 5;
  const minMs = opts.minMs ?? 1000;
  await fn();
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < minRuns || performance.now() - start < minMs) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    if (samples.length >= 200) break;
  }
  samples.sort((a, b) => a - b);
  return { label, ms: samples[samples.length >> 1], runs: samples.length };
}

/**
 * Median wall and CPU milliseconds of `runs` calls (no warm-up: for calls of a second or more). CPU
 * is every thread's, GC included: the cost when the machine is shared with other work.
 */
export function timeCpu(fn: () => unknown, runs = 3): { wallMs: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1];
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

/** Prints rows as an aligned text table. */
export function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/**
 * Times several operations in alternating rounds (a, b, c, a, b, c, ...) so that a busy machine
 * slows them all alike; returns each one's median. One warm-up round first.
 */
export async function timeRounds(ops: readonly { label: string; fn: () => unknown }[], rounds = 15): Promise<Timing[]> {
  const samples = ops.map(() => [] as number[]);
  for (let r = -1; r < rounds; r++) {
    for (const [i, op] of ops.entries()) {
      const t0 = performance.now();
      await op.fn();
      if (r >= 0) samples[i].push(performance.now() - t0);
    }
  }
  return ops.map((op, i) => {
    const s = samples[i].sort((a, b) => a - b);
    return { label: op.label, ms: s[s.length >> 1], runs: s.length };
  });
}
