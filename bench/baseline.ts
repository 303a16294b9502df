/**
 * The guard that keeps the studio fast: each bench figure is compared with the committed baseline
 * (bench/baseline/<bench>.json) and its ratio printed, so the next slowdown shows in the first run
 * after it. BENCH_UPDATE_BASELINE=1 writes the figures of this run as the new baseline (commit it with
 * the change that made them). Ratios, not limits: the machine's speed and load move every figure.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';

const DIR = join(__dirname, 'baseline');

export interface BaselineFile {
  /** When and where the figures were taken (free text: commit, machine, load). */
  readonly note: string;
  readonly figures: Record<string, number>;
}

export function readBaseline(bench: string): BaselineFile | undefined {
  const file = join(DIR, `${bench}.json`);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
  } catch {
    return undefined;
  }
}

/** "1.23x" against the baseline's figure of the same name, or "new" where it has none. */
export function ratioText(baseline: BaselineFile | undefined, name: string, value: number): string {
  const was = baseline?.figures[name];
  if (was === undefined || !Number.isFinite(value)) return 'new';
  if (was === 0) return value === 0 ? '1.00x' : 'was 0';
  return `${(value / was).toFixed(2)}x`;
}

/** With BENCH_UPDATE_BASELINE=1, writes this run's figures as the baseline. */
export function maybeWriteBaseline(bench: string, figures: Record<string, number>, note: string): void {
  if (process.env.BENCH_UPDATE_BASELINE !== '1') return;
  mkdirSync(DIR, { recursive: true });
  const clean = Object.fromEntries(Object.entries(figures).filter(([, v]) => Number.isFinite(v)).map(([k, v]) => [k, Number(v.toPrecision(4))]));
  const load = `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
  writeFileSync(join(DIR, `${bench}.json`), `${JSON.stringify({ note: `${note}; ${load}`, figures: clean }, null, 1)}\n`);
  console.log(`(baseline written: bench/baseline/${bench}.json)`);
}
