/**
 * The capture section of the right column: *Record from webcam…* (the registry's command, also in the
 * File menu and on its shortcut) and what a capture reads besides the body, hands and face, kept in
 * the settings (Settings.capture) for video files and the webcam alike. Only these controls load with
 * the page; the capture itself (renderer/capture) loads when a capture starts.
 */
import type { Studio } from '../app/studio';
import type { MessageKey } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { commandButton } from './commandButton';

const CHOICES: readonly { key: 'hands' | 'face'; label: MessageKey; help: MessageKey }[] = [
  { key: 'hands', label: 'capture.settings.hands', help: 'capture.settings.handsHelp' },
  { key: 'face', label: 'capture.settings.face', help: 'capture.settings.faceHelp' },
];

export function createCaptureControls(studio: Studio): HTMLElement {
  const settings = studio.settings;
  const boxes = CHOICES.map(({ key, label, help }) => {
    const input = h('input', { type: 'checkbox', id: `capture-${key}` });
    input.checked = settings.value.capture[key];
    settings.onChange((s) => (input.checked = s.capture[key]));
    // Not stored (no settings service): the choice lasts for this page.
    input.addEventListener('change', () => void settings.set({ capture: { [key]: input.checked } }).catch(() => undefined));
    return tAttr(h('label', { class: 'field check', for: `capture-${key}` }, input, tText(h('span'), label)), 'title', help);
  });
  return h(
    'section',
    { class: 'panel capture-controls', 'aria-labelledby': 'capture-controls-title' },
    tText(h('h2', { id: 'capture-controls-title' }), 'capture.settings.title'),
    h('div', { class: 'button-column' }, commandButton(studio, 'file.recordWebcam'), ...boxes),
  );
}
