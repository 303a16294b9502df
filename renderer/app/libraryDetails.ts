/**
 * What a library entry is: kind and duration (worked out by the backend, StudioApi.describeFile),
 * asked for every listed file a few at a time and cached per file and modification time, so the
 * list shows them without hovering (issue 11) and a re-listing costs nothing.
 */
import type { FileDetails, LibraryEntry, StudioApi } from '../../shared/contract/studioApi';
import { formatNumber } from '../../shared/i18n';

/** Stable text of the details (tests read it as data-details): "motion, 2.00 s", "motion, 3.33 s, 14 takes", "avatar", "MMD model", "video", "unreadable: …". */
export function detailsText(d: FileDetails): string {
  const takes = d.takes && d.takes.length > 1 ? `, ${d.takes.length} takes` : '';
  if (d.kind === 'unreadable') return `unreadable: ${d.error ?? 'unknown problem'}`;
  if (d.kind === 'avatar') return `avatar${takes}`;
  if (d.kind === 'model') return 'MMD model';
  if (d.kind === 'video') return 'video';
  if (d.kind === 'pose') return `pose (one frame)${takes}`;
  return `motion, ${formatNumber(d.duration ?? 0, 2, 2)} s${takes}`;
}

const CONCURRENCY = 3;

export class LibraryDetails {
  private readonly cache = new Map<string, Promise<FileDetails | null>>();
  private readonly queue: (() => void)[] = [];
  private running = 0;

  constructor(private readonly api: StudioApi) {}

  get(entry: LibraryEntry): Promise<FileDetails | null> {
    const key = `${entry.path}|${entry.mtimeMs}|${entry.size}`;
    let p = this.cache.get(key);
    if (!p) {
      p = new Promise<FileDetails | null>((resolve) => {
        this.queue.push(() =>
          this.api.describeFile(entry.path).then(
            (d) => resolve(d),
            () => {
              this.cache.delete(key); // try again at the next listing
              resolve(null);
            },
          )
        );
      });
      this.cache.set(key, p);
      this.pump();
    }
    return p;
  }

  private pump(): void {
    while (this.running < CONCURRENCY && this.queue.length) {
      const job = this.queue.shift()!;
      this.running++;
      void Promise.resolve(job()).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}
