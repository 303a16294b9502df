/** Playback controls under the viewport: play/pause, frame steps, loop, speed, time and falloff. */
import type { Studio } from '../app/studio';
import { h, labelled } from '../ui/dom';
import { commandButton } from './commandButton';
import { formatTime } from '../app/frames';
import { t, formatNumber, onLocaleChange } from '../../shared/i18n';
import { localize, tAttr } from '../ui/i18n';
import { shortcutText } from '../app/commands';
import { IS_MAC } from '../app/platformKeys';
import { FALLOFF_SECONDS } from '../../shared/contract/studioApi';
import { afterTask } from '../ui/deferred';

export function createTransportBar(studio: Studio): HTMLElement {
  const timeText = tAttr(h('output', { class: 'time-readout', 'aria-live': 'off' }), 'aria-label', 'studio.transport.time');
  const loop = h('input', { type: 'checkbox', id: 'loop-toggle', checked: true }) as HTMLInputElement;
  loop.addEventListener('change', () => {
    studio.clock.loop = loop.checked;
  });
  const speed = h('select', { id: 'speed-select' }) as HTMLSelectElement;
  for (const s of [0.25, 0.5, 1, 1.5, 2]) speed.append(localize(h('option', { value: s, selected: s === 1 }), (o) => (o.textContent = `${formatNumber(s)}×`)));
  speed.addEventListener('change', () => {
    studio.clock.speed = Number(speed.value);
  });
  const falloff = h('input', { type: 'number', id: 'falloff-input', min: FALLOFF_SECONDS.min, max: FALLOFF_SECONDS.max, step: FALLOFF_SECONDS.step, value: studio.falloff }) as HTMLInputElement;
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
    const label = t(studio.clock.playing ? 'studio.transport.pause' : 'studio.transport.play');
    play.setAttribute('aria-label', t('studio.tooltip.withShortcut', { text: label, shortcut: shortcutText('Space', IS_MAC) }));
    play.setAttribute('aria-pressed', String(studio.clock.playing));
  };
  onLocaleChange(updatePlay);
  studio.events.on('time', afterTask(update)); // once per task, however many seeks
  studio.events.on('motion', update);
  studio.events.on('playback', updatePlay);
  update();
  updatePlay();
  const bar = h(
    'div',
    { class: 'transport', role: 'toolbar', 'aria-label': t('studio.transport.label') },
    commandButton(studio, 'playback.start', { icon: '«' }),
    commandButton(studio, 'playback.stepBack', { icon: '‹' }),
    play,
    commandButton(studio, 'playback.stepForward', { icon: '›' }),
    commandButton(studio, 'playback.end', { icon: '»' }),
    // Auto-key, Blender's record button: the dot is red while pose edits key (app/autoKey.ts).
    commandButton(studio, 'keys.autoKey', { icon: '●', toggle: true }),
    timeText,
    labelled(() => t('studio.transport.loop'), loop, () => t('studio.transport.loopHelp')),
    labelled(() => t('studio.transport.speed'), speed, () => t('studio.transport.speedHelp')),
    h('span', { class: 'spacer' }),
    commandButton(studio, 'range.in'),
    commandButton(studio, 'range.out'),
    commandButton(studio, 'range.clear'),
    labelled(() => t('studio.transport.falloff'), falloff, () => t('studio.transport.falloffHelp')),
  );
  tAttr(bar, 'aria-label', 'studio.transport.label');
  return bar;
}
