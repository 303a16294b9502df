/**
 * Small JSON documents in the user-data folder, written atomically. A file that cannot be read as
 * JSON is moved aside (NAME.corrupt-TIMESTAMP) so the app starts with defaults and the user's data is
 * still there to inspect.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicWrite';

export type ReadJsonResult = { status: 'ok'; value: unknown } | { status: 'missing' } | { status: 'corrupt'; setAsideTo: string };

export async function readJsonFile(path: string): Promise<ReadJsonResult> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'corrupt', setAsideTo: await setAside(path) };
  }
  try {
    return { status: 'ok', value: JSON.parse(text) };
  } catch {
    return { status: 'corrupt', setAsideTo: await setAside(path) };
  }
}

export async function setAside(path: string): Promise<string> {
  const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(path, aside).catch(() => undefined);
  return aside;
}

/** User data (settings, recent list, session): the file 0600 in a folder 0700 (see privateDir). */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await privateDir(dirname(path));
  await writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n', { overwrite: true, private: true });
}

/**
 * Creates `dir` (and missing parents) as 0700, and narrows `dir` itself to 0700 when an earlier
 * version created it 0755: the user-data folders list what the user opened and hold their motions.
 */
export async function privateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return; // POSIX modes mean nothing there (ACLs of %APPDATA% apply)
  const st = await fs.stat(dir);
  if ((st.mode & 0o077) !== 0) await fs.chmod(dir, st.mode & 0o700);
}
