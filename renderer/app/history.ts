/**
 * Undo/redo over immutable values. Each entry is a complete state (a Motion shares its untouched
 * channels with its neighbours, so keeping them all costs only what changed). A "saved" marker
 * follows the entries so the dirty flag is exact after undo back to the saved state.
 */
export interface HistoryEntry<T> {
  readonly value: T;
  readonly label: string;
  /** The step's parameters in words, read when shown (so it follows a language switch). */
  readonly detail?: () => string;
}

export class History<T> {
  private list: HistoryEntry<T>[];
  private index = 0;
  private savedIndex: number | null = 0;

  constructor(initial: T, label = 'Open') {
    this.list = [{ value: initial, label }];
  }

  get current(): T {
    return this.list[this.index].value;
  }

  get canUndo(): boolean {
    return this.index > 0;
  }

  get canRedo(): boolean {
    return this.index < this.list.length - 1;
  }

  get undoLabel(): string | undefined {
    return this.canUndo ? this.list[this.index].label : undefined;
  }

  get redoLabel(): string | undefined {
    return this.canRedo ? this.list[this.index + 1].label : undefined;
  }

  get length(): number {
    return this.list.length;
  }

  /** Every entry, oldest first (the history list); entries[position] is the current one. */
  get entries(): readonly HistoryEntry<T>[] {
    return this.list;
  }

  /** The entry that matches the file on disk, or null when none does. */
  get savedPosition(): number | null {
    return this.savedIndex;
  }

  /** How many steps can be undone (0 at the opened state). */
  get position(): number {
    return this.index;
  }

  get dirty(): boolean {
    return this.savedIndex !== this.index;
  }

  /** Records a new state; a pending redo branch is dropped, as in every editor. */
  push(value: T, label: string, detail?: () => string): void {
    if (value === this.current) return;
    this.list.length = this.index + 1;
    if (this.savedIndex !== null && this.savedIndex > this.index) this.savedIndex = null;
    this.list.push(detail ? { value, label, detail } : { value, label });
    this.index++;
  }

  undo(): T | undefined {
    if (!this.canUndo) return undefined;
    this.index--;
    return this.current;
  }

  redo(): T | undefined {
    if (!this.canRedo) return undefined;
    this.index++;
    return this.current;
  }

  /** Jumps to entry `index` (the history list: several undos or redos at once). */
  goTo(index: number): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= this.list.length || index === this.index) return false;
    this.index = index;
    return true;
  }

  markSaved(): void {
    this.savedIndex = this.index;
  }

  /**
   * The entry holding `value` is what is on disk now (a save that wrote it finished after later edits,
   * undos or redos): that entry, if the history still has it, is the saved one; otherwise none is, so
   * the document stays dirty and nothing newer is taken for saved.
   */
  markSavedValue(value: T): void {
    const i = this.list.findIndex((e) => e.value === value);
    this.savedIndex = i >= 0 ? i : null;
  }

  /** No entry matches the disk (a recovered motion whose file is gone): dirty everywhere. */
  markUnsaved(): void {
    this.savedIndex = null;
  }

  /** Starts over with a new document (opening another motion). */
  reset(value: T, label = 'Open'): void {
    this.list = [{ value, label }];
    this.index = 0;
    this.savedIndex = 0;
  }
}
