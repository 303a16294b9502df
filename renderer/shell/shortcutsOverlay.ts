/**
 * The keyboard shortcuts overlay (? and F1): every shortcut the command registry binds, with the
 * command's label, in the current language. Built from the registry each time it opens, so a
 * command registered later (by another panel) is listed too. Escape, the close button, or ? / F1
 * again close it; focus returns to where it was.
 */
import type { CommandRegistry } from '../app/commands';
import { commandLabel, commandHelp, shortcutText } from '../app/commands';
import { IS_MAC } from '../app/platformKeys';
import { h } from '../ui/dom';
import { localize, tText, tAttr } from '../ui/i18n';

export interface ShortcutsOverlay {
  readonly element: HTMLElement;
  readonly isOpen: () => boolean;
  open(): void;
  close(): void;
  toggle(): void;
}

export function createShortcutsOverlay(registry: CommandRegistry): ShortcutsOverlay {
  const title = tText(h('h2', { id: 'shortcuts-title' }), 'studio.shortcuts.title');
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'shortcuts-table' },
    h('thead', {}, h('tr', {}, tText(h('th', { scope: 'col' }), 'studio.shortcuts.command'), tText(h('th', { scope: 'col' }), 'studio.shortcuts.keys'))),
    body,
  );
  const closeButton = h('button', { type: 'button', class: 'shortcuts-close', id: 'shortcuts-close' });
  tText(closeButton, 'studio.shortcuts.close');
  const box = h('div', { class: 'shortcuts-box', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'shortcuts-title' }, h('div', { class: 'shortcuts-head' }, title, closeButton), table);
  const element = h('div', { class: 'shortcuts-overlay', id: 'shortcuts-overlay', hidden: true }, box);
  let returnFocus: Element | null = null;

  const rows = () =>
    registry
      .all()
      .filter((c) => c.shortcuts?.length)
      .map((c) => {
        const keys = h('td', { class: 'shortcut-keys' }, ...c.shortcuts!.map((s) => h('kbd', { 'data-shortcut': s, text: shortcutText(s, IS_MAC) })));
        return h(
          'tr',
          { 'data-command': c.id },
          localize(h('td', { class: 'shortcut-label' }), (td) => {
            td.textContent = commandLabel(c);
            td.title = commandHelp(c);
          }),
          keys,
        );
      });

  const open = () => {
    if (!element.hidden) return;
    body.replaceChildren(...rows());
    returnFocus = document.activeElement;
    element.hidden = false;
    closeButton.focus();
  };
  const close = () => {
    if (element.hidden) return;
    element.hidden = true;
    if (returnFocus instanceof HTMLElement) returnFocus.focus();
  };
  closeButton.addEventListener('click', close);
  element.addEventListener('click', (e) => {
    if (e.target === element) close();
  });
  // While open, keys belong to the overlay: Escape closes it instead of clearing the range.
  window.addEventListener(
    'keydown',
    (e) => {
      if (element.hidden) return;
      if (e.key === 'Escape' || e.key === 'F1' || e.key === '?') {
        e.preventDefault();
        e.stopImmediatePropagation();
        close();
      } else if (e.key !== 'Tab') {
        e.stopImmediatePropagation();
      }
    },
    { capture: true },
  );
  tAttr(box, 'aria-description', 'studio.shortcuts.help');
  return { element, isOpen: () => !element.hidden, open, close, toggle: () => (element.hidden ? open() : close()) };
}
