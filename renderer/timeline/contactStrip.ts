/**
 * The foot contacts pin-feet would hold (shared/edits/pinFeet.ts detectFootContacts, default
 * thresholds), as a thin strip under the timeline: left foot on the upper half, right on the lower.
 * Its own small canvas and module, so the timeline's drawing stays the timeline's: it reads the
 * timeline's view (start, end, width) and redraws only when that or the motion changed. Contacts are
 * found a moment after the motion changes (not on every edit of a drag), from a foot track
 * (shared/edits/footTrack.ts) kept between edits: an edit re-measures only the frames where it moved a
 * foot, and measuring runs in slices of a few milliseconds, so a long motion never blocks the page.
 */
import type { FootContact } from '../../shared/edits/pinFeet';
import { contactFinder } from './contactFinder';
import type { Studio } from '../app/studio';
import type { TimelineView } from './timelineView';
import { timeToX } from './timeScale';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';

const HEIGHT = 8;
const COLORS = { left: '#5fe08a', right: '#e0b25f' } as const;
export interface ContactStrip {
  readonly element: HTMLCanvasElement;
  /** What the strip shows now, for the test hook: the contacts drawn and the canvas's width (device px). */
  inspect(): { contacts: { foot: FootContact['foot']; start: number; end: number }[]; width: number };
}

export function createContactStrip(studio: Studio, view: TimelineView): ContactStrip {
  const canvas = tAttr(h('canvas', { class: 'contact-strip', 'data-testid': 'contact-strip' }) as HTMLCanvasElement, 'title', 'ik.contacts');
  canvas.style.display = 'block';
  canvas.style.height = `${HEIGHT}px`;
  canvas.style.width = '100%';
  let shown: readonly FootContact[] = [];
  let drawnKey = '';
  let pending = 0;
  const draw = () => {
    const v = view.view;
    const key = `${v.start}|${v.end}|${v.width}|${shown.length}|${window.devicePixelRatio}`;
    if (key === drawnKey) return;
    drawnKey = key;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(v.width * dpr));
    canvas.height = Math.round(HEIGHT * dpr);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, v.width, HEIGHT);
    for (const c of shown) {
      const x0 = Math.max(0, timeToX(v, c.start));
      const x1 = Math.min(v.width, timeToX(v, c.end));
      if (x1 < 0 || x0 > v.width) continue;
      ctx.fillStyle = COLORS[c.foot];
      ctx.fillRect(x0, c.foot === 'left' ? 0 : HEIGHT / 2, Math.max(1, x1 - x0), HEIGHT / 2 - 1);
    }
  };
  // One draw a frame however many seeks asked (a scrub or a seek loop had queued a draw per seek).
  let frame = 0;
  const schedule = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  };
  const find = contactFinder((contacts) => {
    shown = contacts;
    drawnKey = '';
    schedule();
  });
  const recompute = () => {
    clearTimeout(pending);
    pending = window.setTimeout(() => find(studio.motion), 150);
  };
  studio.events.on('motion', recompute);
  // The timeline's view moves with zoom, pan, resize and follow-playback: redraw when it did.
  studio.events.on('time', schedule);
  for (const type of ['wheel', 'pointerup', 'dblclick'] as const) view.element.addEventListener(type, schedule);
  new ResizeObserver(schedule).observe(view.element);
  recompute();
  return { element: canvas, inspect: () => ({ contacts: shown.map((c) => ({ foot: c.foot, start: c.start, end: c.end })), width: canvas.width }) };
}
