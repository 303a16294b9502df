/**
 * The one document model of the studio (issue 10/11): the motion being edited, in an undo history,
 * which file it is, and every way it meets the disk — open, replace, dirty, save, save as, export,
 * mark saved, and crash recovery. The studio, the desktop session, the menu and the panels all go
 * through it; nothing else writes a motion or flips the saved marker.
 *
 * What the words mean (issue 11):
 *  - Save: a .vrma document replaces its own file (atomically, by the backend). A motion converted
 *    on opening (.vmd, .vpd, .bvh, ...) is saved once as NAME.vrma beside its source (NAME-2.vrma only
 *    when NAME.vrma already existed), and from then on the document IS that .vrma. Save on a clean
 *    document writes nothing; an unedited converted motion still counts as needing a Save (its .vrma
 *    does not exist yet) but leaving it does not ask (its source is still there). No file at all:
 *    Save is Save As.
 *  - Save As: a new file chosen by the user; the document becomes that file.
 *  - Export: a copy (beside the document's file: walk.edited.vrma, or a download/dialog without
 *    one); the document stays what it was, dirty or not.
 */
import type { ExportFormat } from '../../shared/export/index';
import type { Motion } from '../../shared/motion/types';
import type { SaveResult } from '../../shared/contract/studioApi';
import { writeVrma, type WriteOptions } from '../../shared/vrma/write';
import { History, type HistoryEntry } from './history';
import { Emitter } from './emitter';
import { t, getLocale } from '../../shared/i18n';

/** How the document reaches the disk: the StudioApi in the app and the browser host, a download without it. */
export interface DocumentStore {
  /** Replace an existing file the user opened or saved to (atomic). */
  replaceFile(path: string, bytes: Uint8Array): Promise<SaveResult>;
  /** Write beside `sourcePath` under the export naming (walk.vmd -> walk.vrma, walk.vrma -> walk.edited.vrma). */
  writeBeside(sourcePath: string, bytes: Uint8Array, take?: string, format?: ExportFormat): Promise<SaveResult>;
  /**
   * Save As: asks where (native dialog, or the page's own dialog) and writes there; null when the
   * user cancelled. `overwrite` is decided by whoever asked (the dialog showed the conflict).
   */
  saveAs(bytes: Uint8Array, suggestedName: string): Promise<{ readonly path?: string } | null>;
  /** Export of a document with no file: a native dialog or a download. Returns where it went. */
  exportLoose(bytes: Uint8Array, suggestedName: string): Promise<{ path?: string; name: string } | null>;
}

/** A report line: final text, or a function read again in the current language (a worded warning). */
export type ReportText = string | (() => string);

export interface OpenOptions {
  /** Shown name without extension (walk for walk.vmd). */
  readonly name: string;
  /** The file it was read from, when its path is known (library, dialog, Electron drop). */
  readonly path?: string;
  /** Converted on opening from another format (.vmd, .vpd, .bvh, .fbx, .glb...). */
  readonly converted?: boolean;
  /** Conversion notes (skipped bones, assumptions): the document's report. */
  readonly reports?: readonly ReportText[];
  /** History label of the first entry. */
  readonly label?: string;
  /** The take of an .fbx/.glb file with several: saved and exported beside it as NAME.TAKE.vrma. */
  readonly take?: string;
}

/**
 * Save in place through a writer that has the motion already and sends the file itself (the autosave
 * worker, renderer/platform/autosaveWriter.ts): the page never holds the file's bytes. Null when it
 * cannot (no worker): Save then writes the bytes here. Rejects with an AbortError when `signal` stopped
 * it before the file was replaced.
 */
export type FileSaver = (motion: Motion, path: string, opts: SaveControl) => Promise<SaveResult | null>;

/** Progress and cancel of one Save. */
export interface SaveControl {
  readonly signal?: AbortSignal;
  /** The share of the file sent so far (0..1]. */
  readonly onProgress?: (done: number) => void;
}

export type SaveOutcome =
  /** `bytes`: what was written, when the page made them (absent when the file was sent by a FileSaver). */
  | { readonly kind: 'saved'; readonly path?: string; readonly bytes?: Uint8Array; readonly size: number; readonly created: boolean }
  | { readonly kind: 'unchanged'; readonly path?: string }
  | { readonly kind: 'cancelled' };

export interface ExportOutcome {
  readonly path?: string;
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface DocumentEvents {
  /** Identity, dirty state or history changed (title, library mark, autosave follow). */
  changed: null;
  /** What went to disk or to a download (tests read it through the test hook); `bytes` where the page made them. */
  written: { readonly kind: 'save' | 'saveAs' | 'export'; readonly path?: string; readonly size: number; readonly bytes?: Uint8Array };
  [key: string]: unknown;
}

/** What autosave keeps of the document besides the motion bytes; `view.history` is ours. */
export interface DocumentSnapshot {
  readonly motionName: string;
  readonly sourcePath?: string;
  readonly undoIndex: number;
  /** Labels of the steps from the opened state to the current one, and the file state. */
  readonly history: { readonly labels: readonly string[]; readonly filePath?: string; readonly converted: boolean };
}

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;
const stem = (name: string) => name.replace(/\.[^.]+$/, '');

export class MotionDocument {
  readonly events = new Emitter<DocumentEvents>();
  readonly history: History<Motion>;
  private _name: string;
  /** The .vrma file this document is: Save replaces it. */
  private _filePath: string | undefined;
  /** The file it was opened from (a .vmd for a converted motion). */
  private _sourcePath: string | undefined;
  /** The take of a multi-take source this document was converted from. */
  private _take: string | undefined;
  /** Converted on opening and not yet written as a .vrma. */
  private _pendingConversion = false;
  private _reports: ReportText[] = [];

  constructor(initial: Motion, name: string) {
    this.history = new History(initial);
    this._name = name;
  }

  get motion(): Motion {
    return this.history.current;
  }
  get name(): string {
    return this._name;
  }
  /** The document's own .vrma, if it has one. */
  get filePath(): string | undefined {
    return this._filePath;
  }
  /** The file it was opened from, or the file it became by saving (export naming and autosave use it). */
  get sourcePath(): string | undefined {
    return this._filePath ?? this._sourcePath;
  }
  /** Edits since the last save (or since opening): leaving asks about these. */
  get dirty(): boolean {
    return this.history.dirty;
  }
  /** Whether Save would write anything: edits, or a converted motion whose .vrma does not exist yet. */
  get needsSave(): boolean {
    return this.history.dirty || this._pendingConversion;
  }
  /** Converted on opening and never saved as .vrma. */
  get pendingConversion(): boolean {
    return this._pendingConversion;
  }
  /** Conversion notes of this document (the report panel); cleared when the document changes. */
  get reports(): readonly string[] {
    return this._reports.map((r) => (typeof r === 'function' ? r() : r));
  }
  /** The file name the title and the library show: the .vrma once it has one, else the source. */
  get fileLabel(): string {
    if (this._filePath) return baseName(this._filePath);
    // A take of an .fbx/.glb is a document of its own: NAME.TAKE (the name its .vrma gets), not the file.
    if (this._take !== undefined) return this._name;
    return this.sourcePath ? baseName(this.sourcePath) : this._name;
  }

  /** A new document (another motion opened): history, identity and reports start over. */
  open(motion: Motion, opts: OpenOptions): void {
    this.history.reset(motion, opts.label ?? 'Open');
    this._name = opts.name;
    const isVrma = !!opts.path && /\.vrma$/i.test(opts.path) && !opts.converted;
    this._filePath = isVrma ? opts.path : undefined;
    this._sourcePath = opts.path;
    this._take = opts.take;
    this._pendingConversion = !!opts.converted;
    this._reports = [...(opts.reports ?? [])];
    this.changed();
  }

  addReport(text: ReportText): void {
    this._reports.push(text);
    this.changed();
  }

  /**
   * Whether the views can show a motion (the studio's preview builds its clip, or says why it cannot).
   * The document moves only to motions they can: otherwise it would hold one while the avatar showed another.
   */
  private shows: (motion: Motion) => boolean = () => true;

  showsWith(shows: (motion: Motion) => boolean): void {
    this.shows = shows;
  }

  /** One undo step. */
  commit(motion: Motion, label: string, detail?: () => string): boolean {
    if (motion === this.motion || !this.shows(motion)) return false;
    this.history.push(motion, label, detail);
    this.changed();
    return true;
  }

  /** Whether the history entry `by` steps away exists and the views can show it. */
  private canStep(by: number): boolean {
    const to = this.history.entries[this.history.position + by];
    return to !== undefined && this.shows(to.value);
  }

  undo(): boolean {
    const ok = this.canStep(-1) && this.history.undo() !== undefined;
    if (ok) this.changed();
    return ok;
  }

  redo(): boolean {
    const ok = this.canStep(1) && this.history.redo() !== undefined;
    if (ok) this.changed();
    return ok;
  }

  /** Jumps to a history entry (the history list). */
  goTo(index: number): boolean {
    const ok = this.canStep(index - this.history.position) && this.history.goTo(index);
    if (ok) this.changed();
    return ok;
  }

  /** The current motion's .vrma bytes (what Save, Export and the autosave write). */
  bytes(): Uint8Array {
    return writeVrma(this.motion);
  }

  /** How Save and Save As turn a motion into bytes: writeVrma, or a writer off the main thread (setWriter). */
  private writer: (motion: Motion) => Promise<Uint8Array> = async (m) => writeVrma(m);

  setWriter(writer: (motion: Motion) => Promise<Uint8Array>): void {
    this.writer = writer;
  }

  /** Save in place without the bytes passing through here (the autosave worker's); null: none. */
  private fileSaver: FileSaver | null = null;

  setFileSaver(saver: FileSaver | null): void {
    this.fileSaver = saver;
  }

  /**
   * The document is now the file at `path`; `written` is the motion the file holds (default: the one
   * on screen). Edits made while it was being written stay unsaved.
   */
  markSaved(path?: string, written?: Motion): void {
    if (path) {
      this._filePath = path;
      this._name = stem(baseName(path));
    }
    this._pendingConversion = false;
    if (written && written !== this.motion) this.history.markSavedValue(written);
    else this.history.markSaved();
    this.changed();
  }

  /** Save (see the header). Nothing is written on a clean document. */
  async save(store: DocumentStore, control: SaveControl = {}): Promise<SaveOutcome> {
    if (!this.needsSave) return { kind: 'unchanged', path: this._filePath };
    const motion = this.motion;
    if (this._filePath && this.fileSaver) {
      let sent: SaveResult | null;
      try {
        sent = await this.fileSaver(motion, this._filePath, control);
      } catch (e) {
        if ((e as Error)?.name === 'AbortError') return { kind: 'cancelled' };
        throw e;
      }
      if (sent) {
        this.markSaved(sent.path, motion);
        this.events.emit('written', { kind: 'save', path: sent.path, size: sent.size });
        return { kind: 'saved', path: sent.path, size: sent.size, created: false };
      }
    }
    const bytes = await this.writer(motion);
    let result: SaveResult;
    let created = false;
    if (this._filePath) result = await store.replaceFile(this._filePath, bytes);
    else if (this._sourcePath) {
      result = await store.writeBeside(this._sourcePath, bytes, this._take);
      created = true;
    } else return this.saveAs(store, bytes, motion);
    this.markSaved(result.path, motion);
    this.events.emit('written', { kind: 'save', path: result.path, size: bytes.length, bytes });
    return { kind: 'saved', path: result.path, bytes, size: bytes.length, created };
  }

  /** Save As: a new file; the document becomes it. */
  async saveAs(store: DocumentStore, given?: Uint8Array, written: Motion = this.motion): Promise<SaveOutcome> {
    const bytes = given ?? (await this.writer(written));
    const result = await store.saveAs(bytes, `${this._name || 'motion'}.vrma`);
    if (!result) return { kind: 'cancelled' };
    this.markSaved(result.path, written);
    this.events.emit('written', { kind: 'saveAs', path: result.path, size: bytes.length, bytes });
    return { kind: 'saved', path: result.path, bytes, size: bytes.length, created: true };
  }

  /** Export: a copy; the document keeps its file and its dirty state. `write`: e.g. the smaller file (exportEncoding.ts). */
  async export(store: DocumentStore, write: WriteOptions = {}): Promise<ExportOutcome | null> {
    const bytes = writeVrma(this.motion, write);
    const suggested = `${this._name || 'motion'}.vrma`;
    let out: { path?: string; name: string } | null;
    if (this.sourcePath) {
      const r = await store.writeBeside(this.sourcePath, bytes, this._filePath ? undefined : this._take);
      out = { path: r.path, name: baseName(r.path) };
    } else out = await store.exportLoose(bytes, suggested);
    if (!out) return null;
    this.events.emit('written', { kind: 'export', path: out.path, size: bytes.length, bytes });
    return { ...out, bytes };
  }

  /**
   * Export to another format (bytes written by shared/export): NAME.FORMAT beside the source (the
   * document keeps its file and dirty state), or through a dialog or a download without one.
   */
  async exportAs(store: DocumentStore, format: ExportFormat, bytes: Uint8Array): Promise<ExportOutcome | null> {
    let out: { path?: string; name: string } | null;
    if (this.sourcePath) {
      const r = await store.writeBeside(this.sourcePath, bytes, this._filePath ? undefined : this._take, format);
      out = { path: r.path, name: baseName(r.path) };
    } else out = await store.exportLoose(bytes, `${this._name || 'motion'}.${format}`);
    if (!out) return null;
    this.events.emit('written', { kind: 'export', path: out.path, size: bytes.length, bytes });
    return { ...out, bytes };
  }

  /** What autosave stores next to the motion bytes. */
  snapshot(): DocumentSnapshot {
    const labels: string[] = [];
    for (let i = 1; i <= this.history.position; i++) labels.push(this.history.entries[i].label);
    return {
      motionName: this._name,
      ...(this.sourcePath ? { sourcePath: this.sourcePath } : {}),
      undoIndex: this.history.position,
      history: { labels, ...(this._filePath ? { filePath: this._filePath } : {}), converted: this._pendingConversion },
    };
  }

  /**
   * Crash recovery. The autosave holds the motion at the undo position it had (undoIndex steps after
   * opening) and the steps' labels. `base` is the document as it was opened (its file read again),
   * when that is still possible: then the history is [opened, recovered] and Undo goes back to the
   * file as saved, exactly as before the crash; the steps in between are not kept by the autosave
   * (only their names, in the recovered step's label). Without a base, the recovered motion is the
   * only entry, marked unsaved.
   */
  recover(recovered: Motion, snap: Partial<DocumentSnapshot> & { motionName: string }, base: Motion | null): void {
    const labels = snap.history?.labels ?? [];
    const steps = Math.max(labels.length, snap.undoIndex ?? 0);
    const label = labels.length ? t('studio.doc.recoveredSteps', { steps: labels.join(getLocale() === 'ja' ? '、' : ', ') }) : t('studio.doc.recoveredCount', { count: steps });
    if (base) {
      this.history.reset(base, 'Open');
      this.history.push(recovered, label);
    } else {
      this.history.reset(recovered, label);
      this.history.markUnsaved();
    }
    this._name = snap.motionName;
    this._filePath = snap.history?.filePath ?? (snap.sourcePath && /\.vrma$/i.test(snap.sourcePath) ? snap.sourcePath : undefined);
    this._sourcePath = snap.sourcePath;
    this._take = undefined; // not in the autosave: a recovered take exports under the source's own name
    this._pendingConversion = snap.history?.converted ?? false;
    this._reports = [];
    this.changed();
  }

  private changed(): void {
    this.events.emit('changed', null);
  }
}

export type { HistoryEntry };
