/**
 * A button bound to a registered command: label, tooltip with shortcut, enabled and (for a toggle)
 * pressed state come from the registry, in the current language (rewritten on a language switch).
 */
import type { Studio } from '../app/studio';
import { commandLabel, commandTooltip } from '../app/commands';
import { h } from '../ui/dom';
import { localize } from '../ui/i18n';
import { IS_MAC } from '../app/platformKeys';

/** `toggle`: the button shows the command's check mark as its pressed state (auto-key's record button). */
export function commandButton(studio: Studio, id: string, opts: { icon?: string; label?: () => string; toggle?: boolean } = {}): HTMLButtonElement {
  const cmd = studio.commands.get(id);
  if (!cmd) throw new Error(`Unknown command ${id}`);
  const b = h('button', { type: 'button', 'data-command': id });
  if (opts.icon) {
    b.textContent = opts.icon;
    b.classList.add('icon');
  }
  localize(b, () => {
    const label = opts.label?.() ?? commandLabel(cmd);
    b.title = commandTooltip(cmd, IS_MAC);
    if (opts.icon) b.setAttribute('aria-label', label);
    else b.textContent = label;
  });
  b.addEventListener('click', () => void studio.commands.run(id));
  const sync = () => {
    b.disabled = !studio.commands.isEnabled(id);
    if (opts.toggle) b.setAttribute('aria-pressed', String(cmd.isChecked?.() ?? false));
  };
  studio.commands.onChange(sync);
  sync();
  return b;
}
