/** A button bound to a registered command: label, tooltip with shortcut and enabled state come from the registry. */
import type { Studio } from '../app/studio';
import { shortcutText } from '../app/commands';
import { h } from '../ui/dom';
import { IS_MAC } from '../app/platformKeys';

export function commandButton(studio: Studio, id: string, opts: { icon?: string; label?: string } = {}): HTMLButtonElement {
  const cmd = studio.commands.get(id);
  if (!cmd) throw new Error(`Unknown command ${id}`);
  const shortcut = cmd.shortcuts?.[0];
  const title = `${cmd.description ?? cmd.label}${shortcut ? ` (${shortcutText(shortcut, IS_MAC)})` : ''}`;
  const b = h('button', { type: 'button', title, 'data-command': id });
  if (opts.icon) {
    b.textContent = opts.icon;
    b.classList.add('icon');
    b.setAttribute('aria-label', opts.label ?? cmd.label);
  } else {
    b.textContent = opts.label ?? cmd.label;
  }
  b.addEventListener('click', () => void studio.commands.run(id));
  const sync = () => {
    b.disabled = !studio.commands.isEnabled(id);
  };
  studio.commands.onChange(sync);
  sync();
  return b;
}
