/**
 * Two large .vrma files described at once do not hold twice the memory of one: the describing pool's
 * byte budget (main/services/describeWorker.ts DESCRIBE_BUDGET_MB, JobPool budgetBytes) describes a
 * file over it alone, after the worker of the one before has gone. Without it, each describing worker
 * held a few times its file at once (411 MB after a 60-minute .vrma), and two such files could take
 * the host past its 1 GiB (tests/security/hostPing.e2e.test.ts).
 *
 * Measured on the built host (out/main/host.js), as the library asks: VmHWM of /proc/PID/status (the
 * process's peak resident memory, worker threads included) above what the host had before the first
 * describe. Host 1 describes one 30-minute 60 fps file (about 99 MB, over the budget); host 2 two such
 * files at once. Tolerance: the pair's rise at most 1.4 times the single file's (both describes at once
 * measured about 2 times: two parses held side by side), and both answers are the file's duration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_SCRIPT, startHost } from '../../testkit/host';
import { api, vmHwmKb } from './hostPinger';
import { makeLongMotion } from '../../testkit/longMotion';
import { writeVrma } from '../../shared/vrma/write';
import { DESCRIBE_BUDGET_MB } from '../../main/services/describeWorker';
import type { FileDetails } from '../../shared/contract/studioApi';

const SECONDS = 1800;
const RATIO_LIMIT = 1.4;

/** The host's VmHWM rise (kB) while it describes `files` at once, and what it answered. */
async function describedAtOnce(root: string, files: readonly string[]): Promise<{ riseKb: number; details: (FileDetails | undefined)[] }> {
  const host = await startHost();
  try {
    expect((await api(host, 'openFolder', root)).error).toBeUndefined();
    const before = vmHwmKb(host.process.pid!);
    const details = (await Promise.all(files.map((f) => api<FileDetails>(host, 'describeFile', join(root, f))))).map((r) => r.value);
    return { riseKb: vmHwmKb(host.process.pid!) - before, details };
  } finally {
    await host.stop();
  }
}

describe.skipIf(!existsSync(HOST_SCRIPT) || process.platform !== 'linux')('two large files described at once: the host holds about one parse, not two', () => {
  let root: string;

  beforeAll(() => {
    // Inside the host's HOME (testkit/host.ts: the temp folder), so it opens without a question.
    root = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-describe-budget-')));
    const bytes = writeVrma(makeLongMotion(SECONDS, 60));
    for (const name of ['a.vrma', 'b.vrma']) writeFileSync(join(root, name), bytes);
  }, 120_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the pair raises the host’s peak memory at most 1.4× as much as one file, and both are described', async () => {
    const size = statSync(join(root, 'a.vrma')).size;
    expect(size).toBeGreaterThan(DESCRIBE_BUDGET_MB * (1 << 20)); // over the budget: described alone
    const one = await describedAtOnce(root, ['a.vrma']);
    const two = await describedAtOnce(root, ['a.vrma', 'b.vrma']);
    console.log(
      `file ${(size / 2 ** 20).toFixed(0)} MB: host VmHWM rise, one describe ${(one.riseKb / 1024).toFixed(0)} MB, two at once ${(two.riseKb / 1024).toFixed(0)} MB (${
        (two.riseKb / one.riseKb).toFixed(2)
      }×)`,
    );
    for (const d of [...one.details, ...two.details]) {
      expect(d?.kind).toBe('motion');
      expect(d?.duration).toBeCloseTo(SECONDS, 3);
    }
    // One describe holds the file's parse: at least the file's size (the reader's views of its bytes).
    expect(one.riseKb * 1024).toBeGreaterThan(size);
    expect(two.riseKb).toBeLessThan(RATIO_LIMIT * one.riseKb);
  }, 600_000);
});
