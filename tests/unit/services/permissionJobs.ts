/**
 * The bodies of convertFileErrors.test.ts's permission-denied cases, callable in-process or as uid
 * 65534 through testkit/unprivileged.ts (JSON in, JSON out).
 */
import { resolve } from 'node:path';
import { runConvertJob } from '../../../main/services/convertWorker';
import { createWorkerConverter } from '../../../main/services/convertFolder';

const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

export function convertOne(input: string, output: string) {
  return runConvertJob({ id: 1, input, output, optimize: false, force: false });
}

export async function convertFolderOnce(folder: string) {
  const summary = await createWorkerConverter(WORKER, { threads: 1 })({ jobId: 'fs', folder, overwrite: false, onProgress: () => {} });
  return { converted: summary.converted.map((c) => c.source), failed: summary.failed };
}
