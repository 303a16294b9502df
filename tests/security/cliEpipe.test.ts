/**
 * Issue 24, finding 16: `vrma-studio convert --list-takes robot.fbx | head -1` printed an unhandled
 * EPIPE error with a 25-line stack. The CLI now ends quietly (exit 0, nothing on stderr) when its
 * reader goes away. A real child process with its stdout pipe closed after the first line.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manyLongTakesFbx } from './hostileReaders';

const ENTRY = join(__dirname, '..', '..', 'main', 'cli', 'index.ts');

describe('security: the CLI ends quietly when its reader goes away (finding 16)', () => {
  it('convert --list-takes of a 2,001-take file (about 100 KB of lines, more than a pipe holds), stdout closed after the first chunk: exit 0, stderr empty', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vrma-sec-epipe-'));
    try {
      const file = join(tmp, 'takes.fbx');
      writeFileSync(file, manyLongTakesFbx(2000, 30));
      const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'convert', '--list-takes', file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let first = '';
      child.stderr.on('data', (d) => (stderr += d));
      // What `head -1` does: read the first line, then close the pipe.
      child.stdout.once('data', (d) => {
        first = String(d).split('\n')[0];
        child.stdout.destroy();
      });
      const code = await new Promise<number | null>((ok) => child.on('close', (c) => ok(c)));
      expect(first).toMatch(/takes\.fbx/);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
