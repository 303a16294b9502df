/**
 * The list of pose files the bedroom offers, kept in step with the opened folders: read once, and
 * again (after a burst of changes settles) on each change. A listing that fails keeps the last list.
 */
import type { BedroomContext } from './context';

export type PoseFileItem = { path: string; name: string };

export class PoseFileWatch {
  files: PoseFileItem[] = [];
  private listing = 0;
  private unsubscribe: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly ctx: BedroomContext,
    /** Called with the list after each reading. */
    private readonly show: (files: readonly PoseFileItem[]) => void,
  ) {}

  /** Subscribe to changes and read the list now. */
  async start(): Promise<void> {
    try {
      this.unsubscribe = this.ctx.onPoseFilesChanged?.(() => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.refresh(), 150);
      }) ?? null;
    } catch {
      this.unsubscribe = null;
    }
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    if (!this.ctx.listPoseFiles) return;
    const mine = ++this.listing;
    try {
      const files = await this.ctx.listPoseFiles();
      if (this.disposed || mine !== this.listing) return;
      this.files = files;
    } catch {
      // No library (a static server) or a folder that vanished: keep the last list.
      if (this.disposed || mine !== this.listing) return;
    }
    this.show(this.files);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.unsubscribe?.();
  }
}
