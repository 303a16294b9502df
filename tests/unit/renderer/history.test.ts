import { describe, expect, it } from 'vitest';
import { History } from '../../../renderer/app/history';

describe('History', () => {
  it('undoes and redoes whole states, one push = one step', () => {
    const a = { v: 1 }, b = { v: 2 }, c = { v: 3 };
    const h = new History(a);
    expect(h.canUndo).toBe(false);
    h.push(b, 'two');
    h.push(c, 'three');
    expect(h.current).toBe(c);
    expect(h.undoLabel).toBe('three');
    expect(h.undo()).toBe(b);
    expect(h.undo()).toBe(a);
    expect(h.undo()).toBeUndefined();
    expect(h.redo()).toBe(b);
    expect(h.redoLabel).toBe('three');
    expect(h.position).toBe(1);
  });

  it('drops the redo branch on a new edit and ignores pushes of the same state', () => {
    const a = {}, b = {}, c = {}, d = {};
    const h = new History(a);
    h.push(b, 'b');
    h.push(c, 'c');
    h.undo();
    h.push(d, 'd');
    expect(h.canRedo).toBe(false);
    expect(h.length).toBe(3);
    h.push(d, 'again');
    expect(h.length).toBe(3);
    expect(h.undo()).toBe(b);
  });

  it('tracks the dirty state across undo and redo, and loses the saved point when its branch is dropped', () => {
    const h = new History('a');
    expect(h.dirty).toBe(false);
    h.push('b', 'b');
    expect(h.dirty).toBe(true);
    h.markSaved();
    expect(h.dirty).toBe(false);
    h.undo();
    expect(h.dirty).toBe(true);
    h.redo();
    expect(h.dirty).toBe(false);
    h.undo();
    h.push('c', 'c');
    // The saved state 'b' is gone for good: nothing in history is clean any more.
    expect(h.dirty).toBe(true);
    h.undo();
    expect(h.dirty).toBe(true);
    h.reset('z');
    expect(h.dirty).toBe(false);
    expect(h.canUndo).toBe(false);
  });

  it('keeps many steps without copying them', () => {
    const states = Array.from({ length: 10_000 }, (_, i) => ({ i }));
    const h = new History(states[0]);
    for (let i = 1; i < states.length; i++) h.push(states[i], `s${i}`);
    for (let i = states.length - 2; i >= 0; i--) expect(h.undo()).toBe(states[i]);
  });
});
