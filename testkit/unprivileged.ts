/**
 * Permission-denied cases for a suite that runs as root (CI does): root opens chmod 000 files, so such
 * a case runs its body in a child process that has dropped to uid/gid 65534 (nobody), where
 * permissions are enforced. The child imports a module by path and calls one of its exports with JSON
 * arguments; the JSON result comes back. As a normal user the cases run in-process and need no child.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NOBODY = 65534;
export const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
const RUNNER = resolve(__dirname, 'unprivilegedRunner.ts');
const ROOT = resolve(__dirname, '..');

/** A file nobody but root can open (chmod 000). */
export function lockedFile(dir: string, name: string, text = 'HIERARCHY\n'): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, 0o000);
  return p;
}

/** Whether a chmod 000 file really refuses this process (false for root). */
export function permissionsEnforcedHere(dir: string): boolean {
  const p = lockedFile(dir, 'probe.bvh');
  try {
    closeSync(openSync(p, 'r'));
    return false;
  } catch {
    return true;
  }
}

/**
 * How this run can test a permission-denied case: 'here' (a normal user), 'nobody' (root, through a
 * child as uid 65534), or null (root on a system without setuid children, e.g. no such user).
 */
export function permissionMode(dir: string): 'here' | 'nobody' | null {
  if (permissionsEnforcedHere(dir)) return 'here';
  return IS_ROOT ? 'nobody' : null;
}

/** A folder the unprivileged child may read and write (temp folders are made 0700). */
export function openToNobody(dir: string): string {
  chmodSync(dir, 0o777);
  return dir;
}

/** Calls `exportName` of the module at `modulePath` (repository-relative) as uid 65534 and returns its JSON result. */
export function runAsNobody<T>(modulePath: string, exportName: string, args: readonly unknown[]): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, JSON.stringify({ module: resolve(ROOT, modulePath), exportName, args })], {
      uid: NOBODY,
      gid: NOBODY,
      cwd: ROOT,
      // tsx keeps its cache under the temp folder; HOME must be somewhere nobody may write.
      env: { ...process.env, HOME: '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`the child as uid ${NOBODY} exited ${code}: ${err.slice(0, 2000)}`));
      const line = out.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(line) as { uid: number; result: T };
        if (parsed.uid !== NOBODY) return fail(new Error(`the child ran as uid ${parsed.uid}, not ${NOBODY}`));
        done(parsed.result);
      } catch (e) {
        fail(new Error(`the child as uid ${NOBODY} printed no JSON result (${String(e)}): ${out.slice(0, 500)} ${err.slice(0, 500)}`));
      }
    });
  });
}
