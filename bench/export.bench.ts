/**
 * Export (issue 26): time of each writer on the 10-minute motion (testkit/longMotion.ts: 55 bones,
 * hips path and 5 expressions; 600 s exported at 30 fps), against the aims: under 1 s for VMD, BVH
 * and GLB (baked on the generated mannequin), under 2 s for FBX. Also the output size and, for
 * comparison in the same run, writing the same motion as .vrma.
 * BENCH_FILTER=export node --import tsx bench/run.ts
 */
import { makeLongMotion } from '../testkit/longMotion';
import { printTable, timeIt } from './timing';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { EXPORTERS } from '../shared/export/index';
import { writeVrma } from '../shared/vrma/write';
import type { ExportResult } from '../shared/export/report';

const AIM_MS: Readonly<Record<string, number>> = { vmd: 1000, bvh: 1000, glb: 1000, fbx: 2000 };

export async function run(): Promise<void> {
  const motion = makeLongMotion();
  const avatar = makeMannequinVrm();
  const writers: [string, () => ExportResult | Uint8Array][] = [
    ['vmd', () => EXPORTERS.vmd.write(motion)],
    ['bvh', () => EXPORTERS.bvh.write(motion)],
    ['glb', () => EXPORTERS.glb.write(motion, { avatar })],
    ['fbx', () => EXPORTERS.fbx.write(motion)],
    ['vrma (peer)', () => writeVrma(motion)],
  ];
  const rows: string[][] = [];
  for (const [name, write] of writers) {
    let last: ExportResult | Uint8Array | undefined;
    const t = await timeIt(name, () => (last = write()), { minRuns: 3, minMs: 0 });
    // CPU time of one more run too: on a shared machine the wall clock also counts other processes' turns.
    const cpu0 = process.cpuUsage();
    write();
    const cpu = process.cpuUsage(cpu0);
    const bytes = last instanceof Uint8Array ? last.length : last!.bytes.length;
    const frames = last instanceof Uint8Array ? '-' : String(last!.frames);
    const aim = AIM_MS[name];
    const cpuMs = (cpu.user + cpu.system) / 1000;
    rows.push([name, frames, (bytes / 1e6).toFixed(1), t.ms.toFixed(0), cpuMs.toFixed(0), aim ? `< ${aim}` : '-', aim ? (t.ms < aim ? 'yes' : cpuMs < aim ? 'cpu only' : 'NO') : '-', String(t.runs)]);
  }
  printTable('export: the 10-minute motion (600 s, 55 bones, hips, 5 expressions), median of runs', ['format', 'frames', 'MB', 'wall ms', 'cpu ms', 'aim ms', 'within aim', 'runs'], rows);
}
