/**
 * One registry of commands drives the buttons, the keyboard shortcuts and (in Electron) the menu,
 * so a command's label, shortcut and enabled state are defined once. Shown labels come from the
 * catalogue (`command.<id>.label` / `.help`, shared/i18n/messages/commands.ts) through commandLabel /
 * commandHelp; the English ones given at registration are the fallback for a command without keys.
 */
import { t, translate, hasMessage } from '../../shared/i18n';
export interface Command {
  readonly id: string;
  readonly label: string;
  /** Short explanation shown on hover. */
  readonly description?: string;
  /** Shortcut in the form "Mod+Shift+Z", "Space", "Delete", "ArrowLeft"; Mod is Cmd on macOS, Ctrl elsewhere. */
  readonly shortcuts?: readonly string[];
  /** Menu the command belongs to in the desktop menu bar. */
  readonly menu?: 'file' | 'edit' | 'view' | 'playback' | 'help';
  /** For a menu item with a check mark (the language choice). */
  isChecked?(): boolean;
  isEnabled?(): boolean;
  run(): void | Promise<void>;
}

export interface KeyStroke {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Canonical "Mod+Shift+Alt+Key" for a keyboard event; Mod = the platform's command key. */
export function strokeOf(e: KeyStroke, isMac: boolean): string {
  const parts: string[] = [];
  const mod = isMac ? e.metaKey : e.ctrlKey;
  let key = e.key;
  // A symbol such as "?" already says Shift (and which Shift depends on the keyboard: US, JIS): "?", not "Shift+?".
  const symbol = key.length === 1 && key !== ' ' && key.toUpperCase() === key.toLowerCase() && !/[0-9]/.test(key);
  if (mod) parts.push('Mod');
  if (e.shiftKey && !symbol) parts.push('Shift');
  if (e.altKey) parts.push('Alt');
  if (key === ' ' || key === 'Spacebar') key = 'Space';
  else if (key.length === 1) key = key.toUpperCase();
  parts.push(key);
  return parts.join('+');
}

const KEY_SYMBOLS: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' };

/** Human text for a shortcut on the current platform (for tooltips and menus). */
export function shortcutText(shortcut: string, isMac: boolean): string {
  return shortcut
    .split('+')
    .map((p) => (p === 'Mod' ? (isMac ? '⌘' : 'Ctrl') : p === 'Shift' && isMac ? '⇧' : p === 'Alt' && isMac ? '⌥' : (KEY_SYMBOLS[p] ?? p)))
    .join(isMac ? '' : '+');
}

/**
 * The command's label in the current language: `command.<id>.label`, else `<id>.label` (the edit
 * commands `edit.<edit>` share the edit panel's `edit.<edit>.label`), else the registered English.
 */
export function commandLabel(c: Command): string {
  return translate(`command.${c.id}.label`, undefined, translate(`${c.id}.label`, undefined, c.label));
}

/** The command's explanation in the current language (its label when it has none). */
export function commandHelp(c: Command): string {
  return translate(`command.${c.id}.help`, undefined, translate(`${c.id}.help`, undefined, c.description ?? commandLabel(c)));
}

/** Whether the shown label comes from the catalogue (tests list the commands that still show registered English). */
export function isTranslated(c: Command): boolean {
  return hasMessage(`command.${c.id}.label`) || hasMessage(`${c.id}.label`);
}

/** Tooltip of a command's button: its explanation and its first shortcut, "Undo the last change (Ctrl+Z)". */
export function commandTooltip(c: Command, isMac: boolean): string {
  const shortcut = c.shortcuts?.[0];
  const text = commandHelp(c);
  return shortcut ? t('studio.tooltip.withShortcut', { text, shortcut: shortcutText(shortcut, isMac) }) : text;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  private readonly byStroke = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  register(command: Command): void {
    if (this.commands.has(command.id)) throw new Error(`Command "${command.id}" registered twice`);
    this.commands.set(command.id, command);
    for (const s of command.shortcuts ?? []) {
      const other = this.byStroke.get(s);
      if (other) throw new Error(`Shortcut ${s} of "${command.id}" is already used by "${other}"`);
      this.byStroke.set(s, command.id);
    }
  }

  get(id: string): Command | undefined {
    return this.commands.get(id);
  }

  all(): Command[] {
    return [...this.commands.values()];
  }

  isEnabled(id: string): boolean {
    const c = this.commands.get(id);
    return !!c && (c.isEnabled ? c.isEnabled() : true);
  }

  /** Runs the command when it exists and is enabled; returns whether it ran. */
  async run(id: string): Promise<boolean> {
    const c = this.commands.get(id);
    if (!c || !this.isEnabled(id)) return false;
    await c.run();
    this.changed();
    return true;
  }

  commandForStroke(stroke: string): Command | undefined {
    const id = this.byStroke.get(stroke);
    return id ? this.commands.get(id) : undefined;
  }

  /** Enabled states may have changed: buttons and the menu re-read them. */
  changed(): void {
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
