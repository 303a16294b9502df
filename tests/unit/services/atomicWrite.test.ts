/**
 * A write interrupted by killing the writing process must leave the previous file whole: the new
 * bytes go to a temp file in the same folder and are renamed over the target only once synced.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic, FileExistsError } from '../../../main/services/atomicWrite';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-atomic-');
const REPO = resolve(__dirname, '..', '..', '..');

/** Child: writes `size` bytes of value 0xAB over `target` atomically, saying "go" just before. */
const CHILD = `
const { writeFileAtomic } = require(${JSON.stringify(join(REPO, 'main/services/atomicWrite.ts'))});
const [target, size] = process.argv.slice(-2);
const data = new Uint8Array(Number(size)).fill(0xab);
process.stdout.write('go\\n');
writeFileAtomic(target, data, { overwrite: true }).then(() => process.stdout.write('done\\n'));
`;

function runAndKill(target: string, size: number, killAfterMs: number): Promise<'killed' | 'finished'> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', CHILD, target, String(size)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (out.includes('go\n') && !out.includes('killTimer')) {
        out += 'killTimer';
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.on('error', fail);
    child.on('exit', (_code, signal) => ok(signal === 'SIGKILL' && !out.includes('done') ? 'killed' : 'finished'));
  });
}

describe('writeFileAtomic', () => {
  it('leaves the old file whole when the writer is killed mid-write', async () => {
    const dir = tempDir();
    const target = join(dir, 'motion.vrma');
    const old = new Uint8Array(4096).map((_, i) => i % 251);
    let killed = 0;
    let killedMidWrite = 0;
    // 64 MiB takes tens of milliseconds to write and sync: kills at several moments land inside it.
    for (const delay of [0, 5, 15, 30, 60]) {
      writeFileSync(target, old);
      const tmpBefore = readdirSync(dir).filter((n) => n.endsWith('.tmp')).length;
      const outcome = await runAndKill(target, 64 * 1024 * 1024, delay);
      const now = readFileSync(target);
      if (outcome === 'killed') {
        killed++;
        // A temp file left behind proves the kill landed while the new bytes were being written.
        if (readdirSync(dir).filter((n) => n.endsWith('.tmp')).length > tmpBefore) killedMidWrite++;
        // Either untouched or (if the rename already happened) entirely new: never a mix.
        const isOld = now.length === old.length && now.equals(Buffer.from(old));
        const isNew = now.length === 64 * 1024 * 1024 && now.every((b) => b === 0xab);
        expect(isOld || isNew, `kill after ${delay} ms left ${now.length} bytes`).toBe(true);
      } else {
        expect(now.length).toBe(64 * 1024 * 1024);
      }
    }
    expect(killed).toBeGreaterThan(0);
    expect(killedMidWrite).toBeGreaterThan(0);
    // Stray temp files are hidden (.name.pid.rand.tmp) and never mistaken for motions.
    for (const n of readdirSync(dir)) expect(n === 'motion.vrma' || /^\.motion\.vrma\.\d+\.[0-9a-f]+\.tmp$/.test(n)).toBe(true);
  }, 120_000);

  it('refuses to replace an existing file unless overwrite is set', async () => {
    const dir = tempDir();
    const target = join(dir, 'a.vrma');
    await writeFileAtomic(target, 'first');
    await expect(writeFileAtomic(target, 'second')).rejects.toBeInstanceOf(FileExistsError);
    expect(readFileSync(target, 'utf8')).toBe('first');
    await writeFileAtomic(target, 'third', { overwrite: true });
    expect(readFileSync(target, 'utf8')).toBe('third');
    expect(readdirSync(dir)).toEqual(['a.vrma']);
    expect(existsSync(join(dir, 'b.vrma'))).toBe(false);
  });
});
