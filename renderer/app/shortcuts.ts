/** Keyboard shortcuts: one keydown listener that asks the command registry which command a stroke runs. */
import { strokeOf, type CommandRegistry } from './commands';
import { IS_MAC } from './platformKeys';

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'range'].includes(target.type);
  return false;
}

export function bindShortcuts(registry: CommandRegistry, root: Window = window, isActive: () => boolean = () => true): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (!isActive() || e.defaultPrevented || isTextEntry(e.target)) return;
    const stroke = strokeOf(e, IS_MAC);
    let command = registry.commandForStroke(stroke);
    // Buttons react to Space themselves; the studio's Space means play/pause unless a button has focus.
    if (stroke === 'Space' && e.target instanceof HTMLButtonElement) return;
    if (!command && stroke === 'Backspace') command = registry.commandForStroke('Delete');
    if (!command) return;
    e.preventDefault();
    void registry.run(command.id);
  };
  root.addEventListener('keydown', onKey);
  return () => root.removeEventListener('keydown', onKey);
}
