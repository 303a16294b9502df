/**
 * Library thumbnails, made in a worker (thumbnailWorker.ts) one file at a time and cached per file
 * and modification time, so the list never stalls: the page only fetches the bytes (async) and hands
 * them over (transferred, not copied); parsing, conversion, forward kinematics and drawing happen in
 * the worker. Without workers (or when one fails) there are simply no thumbnails.
 */
import type { LibraryEntry, StudioApi } from '../../shared/contract/studioApi';
import type { ThumbnailReply, ThumbnailRequest } from './thumbnailProtocol';
import { isAvatarFile } from '../../shared/formats/formats';
import { WorkerRpc } from '../workers/workerRpc';

export interface Thumbnail {
  readonly url: string;
}

/** Files larger than this get no thumbnail (a 10-minute capture is not worth a strip in a list). */
const MAX_BYTES = 8 * 1024 * 1024;

export class ThumbnailMaker {
  private readonly cache = new Map<string, Promise<Thumbnail | null>>();
  private readonly queue: { entry: LibraryEntry; resolve: (t: Thumbnail | null) => void }[] = [];
  private busy = false;
  private readonly worker = new WorkerRpc<ThumbnailRequest, ThumbnailReply>(
    () => new Worker(new URL('./thumbnailWorker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }),
    { onFail: (why) => console.warn('thumbnails: the worker failed; no more thumbnails', why) },
  );
  /** Thumbnails made so far (the bench waits for them). */
  made = 0;

  constructor(private readonly api: StudioApi) {}

  static key(e: LibraryEntry): string {
    return `${e.path}|${e.mtimeMs}|${e.size}`;
  }

  /** The entry's thumbnail (from the cache when the file did not change), or null for avatars and failures. */
  get(entry: LibraryEntry): Promise<Thumbnail | null> {
    const key = ThumbnailMaker.key(entry);
    let p = this.cache.get(key);
    if (!p) {
      p = isAvatarFile(entry.name) || entry.size > MAX_BYTES ? Promise.resolve(null) : new Promise((resolve) => this.queue.push({ entry, resolve }));
      this.cache.set(key, p);
      this.pump();
    }
    return p;
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) return;
    if (this.worker.state === 'none') {
      // The worker could not start or failed: no thumbnails, and no reading of files for them.
      job.resolve(null);
      this.pump();
      return;
    }
    this.busy = true;
    const finish = (t: Thumbnail | null) => {
      job.resolve(t);
      this.busy = false;
      this.pump();
    };
    this.api
      .readFile(job.entry.path)
      .then((bytes) => this.worker.call((id) => ({ id, name: job.entry.name, bytes }), { transfer: (req) => [req.bytes.buffer as ArrayBuffer] }))
      .then(
        (reply) => {
          if (!reply.ok) return finish(null);
          this.made++;
          finish({ url: URL.createObjectURL(reply.image) });
        },
        () => finish(null),
      );
  }

  dispose(): void {
    this.queue.length = 0;
    this.worker.dispose(new Error('thumbnails disposed'));
  }
}
