/** Wires the canvas timeline to the studio: what it draws and what its gestures do. */
import type { Studio } from '../app/studio';
import { TimelineView } from './timelineView';
import { createContactStrip, type ContactStrip } from './contactStrip';
import { amountColumns } from './amountCurve';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';
import { snapToFrame } from '../app/frames';

export function createTimeline(studio: Studio): { element: HTMLElement; view: TimelineView; contacts: ContactStrip } {
  const view = new TimelineView({
    duration: () => studio.duration,
    time: () => studio.clock.time,
    range: () => studio.range,
    falloff: () => (studio.selectedBone ? studio.falloff : 0),
    amountCurve: (v) => amountColumns(studio.motion, v, studio.duration, Math.min(v.width, 2000), () => view.invalidateStatic()),
    selectedKeys: () => {
      const bone = studio.selectedBone;
      const m = studio.motion;
      const node = bone ? m.humanoid.boneToNode[bone] : undefined;
      if (node === undefined) return null;
      const rot = m.channels.find((c) => c.node === node && c.path === 'rotation');
      const pos = m.channels.find((c) => c.node === node && c.path === 'translation');
      return rot?.times ?? pos?.times ?? null;
    },
    selectedLabel: () => (studio.selectedBone ? `${studio.selectedBone} keys` : null),
    seek: (time, free) => {
      studio.setPlaying(false);
      studio.seek(free ? time : snapToFrame(time, studio.fps, studio.duration));
    },
    setRange: (r) => studio.setRange(r),
  });
  studio.events.on('time', () => view.invalidateOverlay());
  studio.events.on('falloff', () => view.invalidateOverlay());
  studio.events.on('range', () => view.invalidateStatic());
  studio.events.on('selection', () => view.invalidateStatic());
  studio.events.on('motion', () => view.durationChanged());
  const contacts = createContactStrip(studio, view);
  const element = tAttr(h('section', { class: 'timeline' }, view.element, contacts.element), 'aria-label', 'studio.timeline.label');
  return { element, view, contacts };
}
