/**
 * Kind and duration of a library file, worked out lazily through the format table's own readers
 * (shared/formats/codecs.ts describeFormat): a file listed as readable is one the studio opens, and a
 * broken one is reported with the reader's message. For the backend the reading always runs on the
 * describing workers (describeWorker.ts: heap limit, deadline, cancellation), never on the Electron
 * main process's or the host's own thread (issue 24, finding 1); only the unit tests of the readers
 * call describeFileOnDisk without a describer. Results are cached by path, size and mtime.
 */
import { promises as fs } from 'node:fs';
import { sep } from 'node:path';
import type { FileDetails } from '../../shared/contract/studioApi';
import { motionErrorInfo } from '../../shared/errors';
import { formatOf, SNIFF_BYTES } from '../../shared/formats/formats';
import { CODECS, describeFormat, type FormatDescription } from '../../shared/formats/codecs';

/**
 * Describes one file off this thread (describeFormat on a worker). Rejects with the reader's
 * MotionError (rebuilt from the worker's result, so its code and detail survive).
 */
export type FileDescriber = (path: string, signal?: AbortSignal) => Promise<FormatDescription>;

async function readHead(path: string, bytes: number): Promise<Uint8Array> {
  const h = await fs.open(path, 'r');
  try {
    const buf = new Uint8Array(bytes);
    const { bytesRead } = await h.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

function details(path: string, d: FormatDescription): FileDetails {
  return { path, kind: d.kind, ...(d.duration !== undefined ? { duration: d.duration } : {}), ...(d.takes ? { takes: d.takes } : {}) };
}

/**
 * How describe reads a file. The backend passes its open-then-check reader (AccessPolicy: O_NONBLOCK,
 * the descriptor compared with the allowed path, regular files only), so a FIFO named walk.bvh in an
 * opened folder cannot block the thread pool (issue 24, finding 10). Plain fs by default (tests, CLI).
 */
export interface DetailsReader {
  all(path: string): Promise<Uint8Array>;
  head(path: string, bytes: number): Promise<Uint8Array>;
}

const diskReader: DetailsReader = { all: async (path) => new Uint8Array(await fs.readFile(path)), head: readHead };

export async function describeFileOnDisk(path: string, describer?: FileDescriber, read: DetailsReader = diskReader, signal?: AbortSignal): Promise<FileDetails> {
  const format = formatOf(path);
  if (!format) return { path, kind: 'unreadable', error: 'not a studio file type' };
  try {
    const codec = CODECS[format.id];
    if (codec.describeBytes === 0) return details(path, codec.describe(new Uint8Array(0), path));
    if ('headerError' in format && !format.sniff(await read.head(path, SNIFF_BYTES))) return { path, kind: 'unreadable', error: format.headerError };
    if (describer) {
      await read.head(path, 1); // a regular file, before the describing worker opens it by name
      return details(path, await describer(path, signal));
    }
    return details(path, describeFormat(path, await read.all(path)));
  } catch (e) {
    return { path, kind: 'unreadable', error: (e as Error).message, problem: motionErrorInfo(e) };
  }
}

/**
 * describeFileOnDisk on the describing workers with a cache keyed by size and mtime. A file asked for
 * again while it is being described shares that call; cancelUnder stops the calls below a folder
 * (closed in the library), so its files stop holding workers.
 */
export class FileDetailsCache {
  private cache = new Map<string, { size: number; mtimeMs: number; details: FileDetails }>();
  private readonly running = new Map<string, { details: Promise<FileDetails>; stop: AbortController }>();

  constructor(private readonly describer: FileDescriber, private readonly read?: DetailsReader) {}

  async describe(path: string): Promise<FileDetails> {
    const st = await fs.stat(path);
    const hit = this.cache.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.details;
    const key = `${path}\u0000${st.size}\u0000${st.mtimeMs}`;
    const same = this.running.get(key);
    if (same) return same.details;
    const stop = new AbortController();
    const details = describeFileOnDisk(path, this.describer, this.read, stop.signal).finally(() => this.running.delete(key));
    this.running.set(key, { details, stop });
    const got = await details;
    if (stop.signal.aborted) return got; // cancelled: not an answer to keep
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, details: got });
    return got;
  }

  /** Stops every describe of a file below `root` (their callers get "unreadable: cancelled"). */
  cancelUnder(root: string): void {
    for (const [key, r] of this.running) if (isBelow(root, key.slice(0, key.indexOf('\u0000')))) r.stop.abort();
  }
}

function isBelow(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
