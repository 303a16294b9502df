import { describe, expect, it } from 'vitest';
import { CommandRegistry, shortcutText, strokeOf } from '../../../renderer/app/commands';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('strokeOf', () => {
  it('names strokes with Mod as Ctrl off macOS and Cmd on macOS', () => {
    expect(strokeOf(key('z', { ctrlKey: true }), false)).toBe('Mod+Z');
    expect(strokeOf(key('z', { ctrlKey: true }), true)).toBe('Z');
    expect(strokeOf(key('z', { metaKey: true }), true)).toBe('Mod+Z');
    expect(strokeOf(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('Mod+Shift+Z');
    expect(strokeOf(key(' '), false)).toBe('Space');
    expect(strokeOf(key('i'), false)).toBe('I');
    expect(strokeOf(key('ArrowLeft'), false)).toBe('ArrowLeft');
    expect(strokeOf(key('Delete'), false)).toBe('Delete');
    // "?" is Shift+/ on US keyboards and Shift+・ on JIS ones: the character is the stroke.
    expect(strokeOf(key('?', { shiftKey: true }), false)).toBe('?');
    expect(strokeOf(key('1', { shiftKey: true }), false)).toBe('Shift+1');
  });

  it('writes shortcuts for tooltips per platform', () => {
    expect(shortcutText('Mod+Shift+Z', false)).toBe('Ctrl+Shift+Z');
    expect(shortcutText('Mod+Shift+Z', true)).toBe('⌘⇧Z');
  });
});

describe('CommandRegistry', () => {
  it('runs commands by id and by shortcut, only when enabled, and tells listeners', async () => {
    const r = new CommandRegistry();
    let runs = 0;
    let enabled = false;
    let changes = 0;
    r.onChange(() => changes++);
    r.register({ id: 'edit.undo', label: 'Undo', shortcuts: ['Mod+Z'], isEnabled: () => enabled, run: () => void runs++ });
    expect(await r.run('edit.undo')).toBe(false);
    enabled = true;
    expect(await r.run('edit.undo')).toBe(true);
    expect(runs).toBe(1);
    expect(changes).toBe(1);
    expect(r.commandForStroke('Mod+Z')?.id).toBe('edit.undo');
    expect(r.commandForStroke('Mod+Y')).toBeUndefined();
    expect(await r.run('missing')).toBe(false);
  });

  it('refuses duplicate ids and shortcuts', () => {
    const r = new CommandRegistry();
    r.register({ id: 'a', label: 'A', shortcuts: ['I'], run: () => {} });
    expect(() => r.register({ id: 'a', label: 'A2', run: () => {} })).toThrow(/twice/);
    expect(() => r.register({ id: 'b', label: 'B', shortcuts: ['I'], run: () => {} })).toThrow(/already used by "a"/);
  });
});
