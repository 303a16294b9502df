/**
 * Autosave and crash recovery. The renderer reports the session after every change (one in flight at
 * a time, no timer of its own: this is the one debouncer); a quarter second after the last report, and
 * never more than 1 s after the first unsaved one (both on the injected clock), it is written to USERDATA/autosave/: the motion bytes first, to a content-addressed
 * motion-<sha256 prefix>.vrma, then session.json naming that file, its length and checksum, both
 * atomically, so a crash at any moment leaves either the previous complete session or the new one.
 * A clean save or close clears it.
 */
import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AutosaveSession, RecoveredSession } from '../../shared/contract/studioApi';
import { writeFileAtomic } from './atomicWrite';
import { privateDir, readJsonFile, writeJsonFile } from './jsonStore';

/** The longest a reported change waits for the disk. */
export const AUTOSAVE_DELAY_MS = 1000;
/** Quiet time after the last report: a burst of edits (undo, redo, a drag's steps) is written once. */
export const AUTOSAVE_QUIET_MS = 250;

interface StoredSession extends Omit<AutosaveSession, 'motion'> {
  version: 1;
  savedAt: number;
  motionFile: string;
  motionBytes: number;
  motionSha256: string;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export class AutosaveStore {
  readonly dir: string;
  private pending: AutosaveSession | null = null;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Increments on every write and clear, so a write overtaken by a clear does not resurrect it. */
  private generation = 0;

  /** When the oldest report not yet written arrived; the write is never put off beyond it + maxWaitMs. */
  private pendingSince = 0;

  constructor(
    userDataDir: string,
    /** Quiet time after the last report before writing (a burst of edits is written once). */
    private readonly delayMs = AUTOSAVE_QUIET_MS,
    /** The clock of the debounce and of `savedAt` (tests move it with their fake timers). */
    private readonly now: () => number = Date.now,
    /** Upper bound from the first unsaved report to the write, so steady edits still reach the disk. */
    private readonly maxWaitMs = AUTOSAVE_DELAY_MS,
  ) {
    this.dir = join(userDataDir, 'autosave');
  }

  /** Debounced with a maximum wait: the latest session is written `delayMs` after the reports stop, or
   * at the latest `maxWaitMs` after the first unsaved one. */
  schedule(session: AutosaveSession): void {
    const t = this.now();
    if (!this.pending) this.pendingSince = t;
    this.pending = session;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.delayMs, this.pendingSince + this.maxWaitMs - t));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, wait);
  }

  /** Writes a pending session now (and waits for any write in progress). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const session = this.pending;
    this.pending = null;
    if (session) {
      const gen = ++this.generation;
      this.writing = this.writing.then(() => (gen === this.generation ? this.write(session) : undefined)).catch((e) => {
        console.error('autosave failed:', (e as Error).message);
      });
    }
    await this.writing;
  }

  /** Removes the autosave (clean save or close) and drops anything pending. */
  async clear(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.generation++;
    await this.writing;
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  /** The session left behind, if it is complete and consistent. */
  async load(): Promise<RecoveredSession | null> {
    await this.writing;
    const r = await readJsonFile(join(this.dir, 'session.json'));
    if (r.status !== 'ok') return null;
    const s = r.value as StoredSession;
    if (s?.version !== 1 || typeof s.motionFile !== 'string' || !/^motion-[0-9a-f]+\.vrma$/.test(s.motionFile)) return null;
    let motion: Uint8Array;
    try {
      motion = new Uint8Array(await fs.readFile(join(this.dir, s.motionFile)));
    } catch {
      return null;
    }
    if (motion.length !== s.motionBytes || sha256(motion) !== s.motionSha256) return null;
    const session: RecoveredSession = {
      avatar: s.avatar,
      motion,
      motionName: s.motionName,
      ...(s.sourcePath !== undefined ? { sourcePath: s.sourcePath } : {}),
      undoIndex: s.undoIndex,
      view: s.view,
      savedAt: s.savedAt,
    };
    return session;
  }

  private async write(session: AutosaveSession): Promise<void> {
    await privateDir(this.dir);
    const hash = sha256(session.motion);
    // Content-addressed motion file: session.json only ever names a file that is completely written.
    const motionFile = `motion-${hash.slice(0, 16)}.vrma`;
    await writeFileAtomic(join(this.dir, motionFile), session.motion, { overwrite: true, private: true });
    const { motion: _bytes, ...rest } = session;
    const stored: StoredSession = {
      ...rest,
      version: 1,
      savedAt: this.now(),
      motionFile,
      motionBytes: session.motion.length,
      motionSha256: hash,
    };
    await writeJsonFile(join(this.dir, 'session.json'), stored);
    // Older motion files are no longer referenced.
    for (const name of await fs.readdir(this.dir)) {
      if (name.startsWith('motion-') && name !== motionFile) await fs.rm(join(this.dir, name), { force: true });
    }
  }
}
