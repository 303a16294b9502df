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

/** How much worse than its baseline a figure may get before the guard flags it. */
export const FLAG_RATIO = 1.5;

export interface Compared {
  /** "1.23x", "1.62x SLOWER", "new" (the baseline has no such figure) or "was 0". */
  readonly text: string;
  /** Worse than FLAG_RATIO times the baseline (below 1 / FLAG_RATIO for a rate such as fps). */
  readonly flagged: boolean;
}

/**
 * A figure against the baseline's figure of the same name. `floor`: values below it count as it, so
 * a 0.3 -> 0.6 ms wobble, or a longest task of "none over 50 ms" (0) against one of 40 ms, is no alarm.
 */
export function compareToBaseline(baseline: BaselineFile | undefined, name: string, value: number, opts: { higherIsBetter?: boolean; floor?: number } = {}): Compared {
  const was = baseline?.figures[name];
  if (was === undefined || !Number.isFinite(value)) return { text: 'new', flagged: false };
  const floor = opts.floor ?? 0;
  const [a, b] = [Math.max(value, floor), Math.max(was, floor)];
  if (b === 0) return a === 0 ? { text: '1.00x', flagged: false } : { text: 'was 0', flagged: !opts.higherIsBetter };
  const ratio = a / b;
  const flagged = opts.higherIsBetter ? ratio < 1 / FLAG_RATIO : ratio > FLAG_RATIO;
  return { text: `${ratio.toFixed(2)}x${flagged ? (opts.higherIsBetter ? ' LOWER' : ' SLOWER') : ''}`, flagged };
}

/** "1.23x" against the baseline's figure of the same name ("1.62x SLOWER" past FLAG_RATIO), or "new" where it has none. */
export function ratioText(baseline: BaselineFile | undefined, name: string, value: number, opts: { higherIsBetter?: boolean; floor?: number } = {}): string {
  return compareToBaseline(baseline, name, value, opts).text;
}

/** Collects the flagged figures of one bench run and prints them at its end, so a slowdown cannot scroll by unseen. */
export class Guard {
  /** Flagged figures of main-thread CPU (names ending in "cpu"): the load moves these least. */
  readonly flagged: string[] = [];
  /** Flagged wall-clock figures: on a loaded machine these move with the load as much as with the code. */
  readonly flaggedWall: string[] = [];
  constructor(
    readonly bench: string,
    readonly baseline: BaselineFile | undefined = readBaseline(bench),
  ) {}

  /** The ratio text of one figure; a flagged one is remembered for the summary. */
  ratio(name: string, value: number, opts: { higherIsBetter?: boolean; floor?: number } = {}): string {
    const c = compareToBaseline(this.baseline, name, value, opts);
    if (c.flagged) (/\bcpu$/.test(name) ? this.flagged : this.flaggedWall).push(`${name}: ${c.text}`);
    return c.text;
  }

  /** Prints the figures flagged in this run (or that none were) and what the baseline was. */
  report(): void {
    if (!this.baseline) {
      console.log(`(guard: no bench/baseline/${this.bench}.json yet; BENCH_UPDATE_BASELINE=1 writes one)`);
      return;
    }
    console.log(`(guard: baseline ${this.baseline.note}; now ${loadText()})`);
    const all = this.flagged.length + this.flaggedWall.length;
    if (!all) console.log(`guard: no figure over ${FLAG_RATIO}x its baseline`);
    else {
      console.log(
        `guard: ${all} figure(s) over ${FLAG_RATIO}x their baseline (${this.flagged.length} of main-thread CPU, ${this.flaggedWall.length} of wall time or memory: compare the loads above before blaming the code for those):`,
      );
      for (const f of this.flagged) console.log(`  FLAGGED ${f}`);
      for (const f of this.flaggedWall) console.log(`  FLAGGED (wall) ${f}`);
    }
  }
}

const loadText = () => `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;

/**
 * With BENCH_UPDATE_BASELINE=1, writes this run's figures into the baseline: they replace the figures
 * of the same names and the others stay (a run of some lengths only, BENCH_LENGTHS, updates those rows).
 */
export function maybeWriteBaseline(bench: string, figures: Record<string, number>, note: string): void {
  if (process.env.BENCH_UPDATE_BASELINE !== '1') return;
  mkdirSync(DIR, { recursive: true });
  const clean = Object.fromEntries(Object.entries(figures).filter(([, v]) => Number.isFinite(v)).map(([k, v]) => [k, Number(v.toPrecision(4))]));
  const old = readBaseline(bench);
  const kept = old ? Object.keys(old.figures).filter((k) => !(k in clean)).length : 0;
  const text = `${note}; ${loadText()}${kept ? `; ${kept} figures kept from: ${old!.note}` : ''}`;
  writeFileSync(join(DIR, `${bench}.json`), `${JSON.stringify({ note: text, figures: { ...old?.figures, ...clean } }, null, 1)}\n`);
  console.log(`(baseline written: bench/baseline/${bench}.json)`);
}
