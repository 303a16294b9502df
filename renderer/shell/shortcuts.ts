/**
 * Keyboard shortcuts: one keydown listener that asks the command registry which command a stroke
 * runs. They work wherever focus is except in text fields (issue 11): Space with a button or a
 * library entry focused is play/pause, not a click on it (Enter still activates the button).
 */
import { strokeOf, type CommandRegistry } from '../app/commands';
import { IS_MAC } from '../app/platformKeys';

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
    if (!command && stroke === 'Backspace') command = registry.commandForStroke('Delete');
    if (!command) return;
    e.preventDefault();
    void registry.run(command.id);
  };
  // A focused button would click on Space's keyup; the keydown above already ran the shortcut.
  const onKeyUp = (e: KeyboardEvent) => {
    if (isActive() && (e.key === ' ' || e.key === 'Spacebar') && !isTextEntry(e.target) && registry.commandForStroke('Space')) e.preventDefault();
  };
  root.addEventListener('keydown', onKey);
  root.addEventListener('keyup', onKeyUp);
  return () => {
    root.removeEventListener('keydown', onKey);
    root.removeEventListener('keyup', onKeyUp);
  };
}
