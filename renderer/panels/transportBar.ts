/** Playback controls under the viewport: play/pause, frame steps, loop, speed, time and falloff. */
import type { Studio } from '../app/studio';
import { h, labelled } from '../ui/dom';
import { commandButton } from './commandButton';
import { formatTime } from '../timeline/timeScale';

export function createTransportBar(studio: Studio): HTMLElement {
  const timeText = h('output', { class: 'time-readout', 'aria-label': 'Current time', 'aria-live': 'off' });
  const loop = h('input', { type: 'checkbox', id: 'loop-toggle', checked: true }) as HTMLInputElement;
  loop.addEventListener('change', () => {
    studio.clock.loop = loop.checked;
  });
  const speed = h('select', { id: 'speed-select' }) as HTMLSelectElement;
  for (const s of [0.25, 0.5, 1, 1.5, 2]) speed.append(h('option', { value: s, text: `${s}×`, selected: s === 1 }));
  speed.addEventListener('change', () => {
    studio.clock.speed = Number(speed.value);
  });
  const falloff = h('input', { type: 'number', id: 'falloff-input', min: 0, max: 10, step: 0.05, value: studio.falloff }) as HTMLInputElement;
  falloff.addEventListener('change', () => {
    const v = Number(falloff.value);
    if (Number.isFinite(v) && v >= 0) studio.setFalloff(v);
    else falloff.value = String(studio.falloff);
  });
  studio.events.on('falloff', (v) => {
    if (document.activeElement !== falloff) falloff.value = String(v);
  });
  const play = commandButton(studio, 'playback.toggle', { icon: '▶' });
  const update = () => {
    timeText.textContent = `${formatTime(studio.clock.time)} / ${formatTime(studio.duration)}`;
  };
  const updatePlay = () => {
    play.textContent = studio.clock.playing ? '❚❚' : '▶';
    play.setAttribute('aria-label', studio.clock.playing ? 'Pause (Space)' : 'Play (Space)');
    play.setAttribute('aria-pressed', String(studio.clock.playing));
  };
  studio.events.on('time', update);
  studio.events.on('motion', update);
  studio.events.on('playback', updatePlay);
  update();
  updatePlay();
  return h(
    'div',
    { class: 'transport', role: 'toolbar', 'aria-label': 'Playback' },
    commandButton(studio, 'playback.start', { icon: '«' }),
    commandButton(studio, 'playback.stepBack', { icon: '‹' }),
    play,
    commandButton(studio, 'playback.stepForward', { icon: '›' }),
    commandButton(studio, 'playback.end', { icon: '»' }),
    timeText,
    labelled('Loop', loop, 'Loop playback'),
    labelled('Speed', speed, 'Playback speed'),
    h('span', { class: 'spacer' }),
    commandButton(studio, 'range.in'),
    commandButton(studio, 'range.out'),
    commandButton(studio, 'range.clear'),
    labelled('Falloff (s)', falloff, 'Pose edits fade out over this many seconds before and after the current time'),
  );
}
