/**
 * VMD conversion (issue 27): the default, the VMD's own keys as cubic keys (the bake plays every
 * frame 4 times, IK on whole frames), against a key on every frame (keys 'everyFrame', what the
 * import made before), in alternating rounds so a busy machine slows both alike; CPU time per run
 * (user + system) beside the median wall time, and the bone keys each gives. The fixture VMDs on
 * the standard skeleton and Gene.pmx, and the 10-minute motion (testkit/longMotion.ts) written as a
 * VMD by the exporter (a key on every frame: the worst case for the fit).
 * BENCH_FILTER=vmdConversion node --import tsx bench/run.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertVmdDetailed } from '../shared/convert/mmd/index';
import { EXPORTERS } from '../shared/export/index';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable } from './timing';

const DIR = join(__dirname, '..', '..', 'shared', 'fixtures');
const FILES = ['vmd/mmdagent/mei_bye.vmd', 'vmd/mmdagent/mei_greeting.vmd', 'vmd/mmdagent/mei_wait.vmd', 'vmd/gene/stand.vmd'];

function measure(fn: () => unknown): { wall: number[]; cpu: number[] } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return { wall: [performance.now() - t0], cpu: [(c.user + c.system) / 1000] };
}

export async function run(): Promise<void> {
  const cases: [string, Uint8Array, Uint8Array | undefined][] = [];
  const gene = existsSync(join(DIR, 'pmx/Gene.pmx')) ? new Uint8Array(readFileSync(join(DIR, 'pmx/Gene.pmx'))) : undefined;
  for (const f of FILES) {
    if (!existsSync(join(DIR, f))) continue;
    const bytes = new Uint8Array(readFileSync(join(DIR, f)));
    cases.push([f.split('/').pop()!, bytes, undefined]);
    if (gene) cases.push([`${f.split('/').pop()} + Gene.pmx`, bytes, gene]);
  }
  cases.push(['10-minute motion as VMD', EXPORTERS.vmd.write(makeLongMotion()).bytes, undefined]);
  const rows: string[][] = [];
  for (const [label, bytes, pmx] of cases) {
    const rounds = bytes.length > 1 << 20 ? 3 : 9;
    const ops = [
      { keys: 'everyFrame' as const, wall: [] as number[], cpu: [] as number[], count: 0 },
      { keys: 'vmd' as const, wall: [] as number[], cpu: [] as number[], count: 0 },
    ];
    for (let r = -1; r < rounds; r++) {
      for (const op of ops) {
        const m = measure(() => {
          const c = convertVmdDetailed(bytes, { pmx, forceModel: pmx !== undefined, keys: op.keys });
          op.count = c.motion.channels.reduce((n, ch) => n + (c.motion.humanoid.nodeToBone.has(ch.node) ? ch.times.length : 0), 0);
        });
        if (r >= 0) {
          op.wall.push(...m.wall);
          op.cpu.push(...m.cpu);
        }
      }
    }
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
    const [before, after] = ops;
    rows.push([
      label,
      String(before.count),
      String(after.count),
      median(before.cpu).toFixed(0),
      median(after.cpu).toFixed(0),
      (median(after.cpu) / median(before.cpu)).toFixed(2),
      median(before.wall).toFixed(0),
      median(after.wall).toFixed(0),
    ]);
  }
  printTable("VMD conversion: every frame (before) vs the VMD's keys (after, the default)", [
    'motion',
    'bone keys before',
    'after',
    'CPU ms before',
    'CPU ms after',
    'CPU after/before',
    'wall ms before',
    'wall ms after',
  ], rows);
}
