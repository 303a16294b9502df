/** Real temporary folders for service tests, removed after each test file. */
import { mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function useTempDirs(prefix = 'vrma-svc-'): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    // realpath: macOS /tmp is a symlink, and the services report real paths.
    const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    made.push(d);
    return d;
  };
}
