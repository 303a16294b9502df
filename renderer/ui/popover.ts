/**
 * The top bar's pop-over panels (undo history, report, notices): a toggle button (aria-expanded) and
 * a panel under the top bar. Escape (wherever the focus is) closes it and, where asked, a press
 * outside, as Blender's and every OS's pop-overs do; while it is open, the Escape it takes is not also a studio
 * shortcut (Esc clears IN/OUT).
 */
import { h } from './dom';

export interface Popover {
  readonly button: HTMLButtonElement;
  readonly panel: HTMLElement;
  readonly isOpen: boolean;
  open(): void;
  close(): void;
}

/** Every pop-over made here, so opening one closes the others. */
const all = new Set<Popover>();

export interface PopoverOptions {
  /** A press outside closes it (the undo history, the notices); the report stays while files are browsed. */
  readonly closeOutside?: boolean;
  readonly onOpenChange?: (open: boolean) => void;
}

export function popover(id: string, title: HTMLElement, body: HTMLElement, render: () => void, opts: PopoverOptions = {}): Popover {
  title.id = `${id}-title`;
  const panel = h('section', { class: 'popover', id, 'aria-labelledby': `${id}-title`, hidden: true }, title, body);
  const button = h('button', { type: 'button', id: `${id}-button`, 'aria-controls': id, 'aria-expanded': 'false' }) as HTMLButtonElement;
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    e.preventDefault();
    const inside = panel.contains(document.activeElement);
    set(false);
    if (inside) button.focus();
  };
  const onPointer = (e: PointerEvent) => {
    const target = e.target as Node | null;
    if (target && (panel.contains(target) || button.contains(target))) return;
    set(false);
  };
  const set = (open: boolean) => {
    const was = !panel.hidden;
    if (open) { for (const other of all) if (other !== self && other.isOpen) other.close(); }
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) render();
    if (open && !was) {
      // Capture phase: the studio's shortcut handler (on window, bubbling) never sees this Escape.
      window.addEventListener('keydown', onKey, true);
      if (opts.closeOutside) window.addEventListener('pointerdown', onPointer, true);
    } else if (!open && was) {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    }
    if (open !== was) opts.onOpenChange?.(open);
  };
  button.addEventListener('click', () => set(panel.hidden));
  const self: Popover = {
    button,
    panel,
    get isOpen() {
      return !panel.hidden;
    },
    open: () => set(true),
    close: () => set(false),
  };
  all.add(self);
  return self;
}
