/**
 * The studio's one notification area (issues 11 and 27): a stack of notices in a polite live region,
 * the newest on top, inside the viewport's top-right corner (placed by placeNotices: never over the
 * transport bar or the timeline), each at most a few lines tall (the whole text in its tooltip and in
 * the history). Notices and confirmations go away by themselves; errors stay until read (dismissed, or
 * seen in the history). A new message always shows: when the stack is full the oldest notice leaves
 * first, then the oldest error, which stays unread behind the bell (the counter in the top bar) until
 * the history is opened. A toast of a group replaces the previous one of that group (a burst of edits
 * shows one confirmation, not five), and the previous document's notices go when another document
 * opens. Details of a conversion live in the document's report panel, not in toasts. A message given
 * as a function is re-rendered after a language switch (pass `() => t(...)`), so a toast on screen and
 * the history follow it.
 */
import { h, button } from './dom';
import { localize, tAttr } from './i18n';
import { t, translate, hasMessage } from '../../shared/i18n';
import type { MotionErrorInfo } from '../../shared/errors';
import type { MotionWarning } from '../../shared/warnings';
import { fileProblemWords, type FileProblem } from '../../shared/fileProblem';

export type MessageKind = 'error' | 'notice' | 'success';
/** A plain string (already final: a file name, a report) or a function read again after a language switch. */
export type MessageText = string | (() => string);

export interface ShownMessage {
  readonly id: number;
  readonly kind: MessageKind;
  /** The text as first shown (the test hook reads it); `read()` gives it in the current language. */
  readonly text: string;
  readonly read: () => string;
  readonly at: number;
  /** An error the user has not dismissed nor seen in the history. Notices and confirmations are never unread. */
  unread: boolean;
}

export interface ShowOptions {
  /** Same-group toasts replace each other ('edit' confirmations, 'document' notices, 'file' saves). */
  readonly group?: string;
  /** The toast points at the report panel (a "Report" button opens it). */
  readonly report?: boolean;
}

/** Most toasts visible at once (a new one pushes the oldest notice, then the oldest error, behind the bell). */
export const MAX_TOASTS = 3;
/** How long a notice or confirmation stays (ms). */
const TOAST_MS = 6000;
/** Messages kept in the log (the history and the test hook read it). */
const LOG_LIMIT = 200;

export class Messages {
  readonly element: HTMLElement;
  /** The last messages shown, oldest first. */
  readonly log: ShownMessage[] = [];
  /** Called by a toast's "Report" button. */
  onOpenReport: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor() {
    this.element = tAttr(h('div', { class: 'messages', role: 'status', 'aria-live': 'polite' }), 'aria-label', 'studio.message.region');
  }

  /** Errors not read yet (the bell's counter). */
  get unread(): number {
    return this.log.reduce((n, m) => n + (m.unread ? 1 : 0), 0);
  }

  /** Called whenever the log or an unread flag changes (the bell and the history follow). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  show(kind: MessageKind, text: MessageText, opts: ShowOptions = {}): void {
    const read = typeof text === 'function' ? text : () => text;
    const entry: ShownMessage = { id: this.nextId++, kind, text: read(), read, at: Date.now(), unread: kind === 'error' };
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    const item = h('div', { class: `message ${kind}`, 'data-id': entry.id });
    if (opts.group) {
      item.dataset.group = opts.group;
      for (const old of this.toasts()) if (old.dataset.group === opts.group && !old.classList.contains('error')) old.remove();
    }
    if (kind === 'error') item.setAttribute('role', 'alert');
    // At most a few lines (CSS line clamp); the whole text on hover and in the history.
    item.append(
      localize(h('span', { class: 'message-text' }), (s) => {
        s.textContent = read();
        s.title = s.textContent;
      }),
    );
    if (opts.report) {
      const report = button(t('studio.report.open'), () => this.onOpenReport?.(), { class: 'report-link' });
      localize(report, (b) => {
        b.textContent = t('studio.report.open');
        b.title = t('studio.report.openHelp');
      });
      item.append(report);
    }
    const dismiss = button(t('studio.message.dismiss'), () => {
      item.remove();
      this.markRead(entry);
    }, { icon: '×' });
    localize(dismiss, (b) => {
      b.setAttribute('aria-label', t('studio.message.dismiss'));
      b.title = t('studio.message.dismiss');
    });
    item.append(dismiss);
    // Newest on top: the stack grows downwards from the corner, the oldest at the bottom.
    const first = this.toasts()[0];
    if (first) first.before(item);
    else this.element.prepend(item);
    this.trim();
    if (kind !== 'error') setTimeout(() => item.remove(), TOAST_MS);
    this.changed();
  }

  error(text: MessageText): void {
    this.show('error', text);
  }

  notice(text: MessageText): void {
    this.show('notice', text);
  }

  /** The user saw every message (the history opened): nothing is unread any more. */
  markAllRead(): void {
    let any = false;
    for (const m of this.log) if (m.unread) (m.unread = false), (any = true);
    if (any) this.changed();
  }

  /** Another document is open: the previous one's notices go (its errors stay until read). */
  documentChanged(): void {
    for (const toast of this.toasts()) if (!toast.classList.contains('error')) toast.remove();
  }

  private markRead(entry: ShownMessage): void {
    if (!entry.unread) return;
    entry.unread = false;
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  private toasts(): HTMLElement[] {
    return [...this.element.querySelectorAll<HTMLElement>(':scope > .message:not(.progress)')];
  }

  /**
   * At most MAX_TOASTS: the oldest notice goes first, then the oldest error (it stays unread behind
   * the bell). The newest toast never goes, so a confirmation always shows.
   */
  private trim(): void {
    let toasts = this.toasts();
    while (toasts.length > MAX_TOASTS) {
      const older = toasts.slice(1);
      const notice = older.reverse().find((x) => !x.classList.contains('error'));
      (notice ?? toasts[toasts.length - 1]).remove();
      toasts = this.toasts();
    }
  }
}

/**
 * What went wrong, for the user, in the current language: a MotionError or StudioApi error code
 * gets its catalogue text (`error.<CODE>` / `apiError.<CODE>`), followed by the specific detail: a
 * MotionError's `detail` worded by the catalogue (`errorDetail.<detail>`) with its real parameters
 * (line, bone, accessor ...), numbers in the user's language. Without a worded detail the core's
 * English message follows instead (better than nothing; tests/unit/i18n/errorDetails.test.ts keeps
 * that from shipping). Anything else shows its message.
 * Call it inside a message function so it is re-read after a language switch.
 */
export function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const key = hasMessage(`error.${code}`) ? `error.${code}` : hasMessage(`apiError.${code}`) ? `apiError.${code}` : null;
    if (key) {
      // A file-system error (the host's NOT_FOUND, DENIED ...) is worded with its file's name.
      const file = (e as { fileProblem?: FileProblem }).fileProblem;
      const detail = (file && typeof file.errno === 'string' && typeof file.file === 'string' ? fileProblemText(file) : null) ?? errorDetailText(e) ?? message;
      return detail ? t('errors.withDetail', { problem: translate(key), detail }) : translate(key);
    }
  }
  return message;
}

/** The worded detail of an error that carries one (a MotionError's `detail` + `params`), or null. */
export function errorDetailText(e: unknown): string | null {
  const { detail, params } = (e ?? {}) as { detail?: unknown; params?: unknown };
  if (typeof detail !== 'string' || !hasMessage(`errorDetail.${detail}`)) return null;
  const values: Record<string, string | number> = {};
  if (params && typeof params === 'object') {
    for (const [k, v] of Object.entries(params)) if (typeof v === 'string' || typeof v === 'number') values[k] = v;
  }
  return translate(`errorDetail.${detail}`, values);
}

/**
 * errorText for an error that arrived as data (a folder conversion's failure, a library file's
 * details): the English `message` and, when the core refused the file, its `problem`.
 */
export function problemText(message: string, problem?: MotionErrorInfo, file?: FileProblem): string {
  if (file) return fileProblemText(file);
  return errorText(problem ? Object.assign(new Error(message), problem) : new Error(message));
}

/** A file-system error that arrived as data, in the current language, naming the file (its base name). */
export function fileProblemText(p: FileProblem): string {
  return fileProblemWords(p, { file: p.file.split(/[\\/]/).pop() || p.file });
}

/**
 * A reader's or converter's warning in the current language: its catalogue detail (`warning.<detail>`)
 * with its real values; the core's English sentence when the detail is not in the catalogue (a
 * warning from a newer core). Call it inside a message function so it is re-read after a language switch.
 */
export function warningText(w: MotionWarning): string {
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(w.params ?? {})) if (typeof v === 'string' || typeof v === 'number') values[k] = v;
  return hasMessage(`warning.${w.detail}`) ? translate(`warning.${w.detail}`, values) : w.text;
}
