/**
 * The gaze in the expressions panel (issue 13): the yaw and pitch the avatar looks at at the playhead
 * (or while its target is dragged in the viewport, the live one), typed to key them exactly (Enter or
 * leaving the field). An avatar without a gaze says so.
 */
import type { Studio } from '../app/studio';
import type { AutoKey } from '../app/autoKey';
import { lookAtAt, setLookAtKey, type YawPitch } from '../../shared/edits/lookAtKeys';
import { frameOf } from '../app/frames';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { localize, tText } from '../ui/i18n';
import { t, formatNumber } from '../../shared/i18n';

export interface GazeFields {
  readonly element: HTMLElement;
  /** Shows the gaze at the playhead (or the live one) in the user's language. */
  render(): void;
  /** The gaze being dragged in the viewport (null: show the motion's again). */
  showLive(gaze: YawPitch | null): void;
}

export function createGazeFields(studio: Studio, autoKey: AutoKey): GazeFields {
  let liveGaze: YawPitch | null = null;
  const angleInput = (which: 'yaw' | 'pitch', limit: number) => {
    const input = h('input', { type: 'number', min: -limit, max: limit, step: 0.1, class: 'gaze-input', id: `gaze-${which}`, 'data-gaze': which }) as HTMLInputElement;
    localize(input, (e) => e.setAttribute('aria-label', t(which === 'yaw' ? 'expressions.gaze.yaw' : 'expressions.gaze.pitch')));
    input.addEventListener('change', () => typedGaze());
    return input;
  };
  const gazeYaw = angleInput('yaw', 180);
  const gazePitch = angleInput('pitch', 90);
  const degree = () => h('span', { class: 'gaze-unit', text: '°' });
  const gazeValues = h(
    'div',
    { class: 'gaze-values', id: 'gaze-values' },
    h('label', { class: 'field' }, tText(h('span'), 'expressions.gaze.yaw'), gazeYaw, degree()),
    h('label', { class: 'field' }, tText(h('span'), 'expressions.gaze.pitch'), gazePitch, degree()),
  );
  const gazeNote = h('p', { class: 'gaze-note', id: 'gaze-note' });
  const element = h('div', { class: 'gaze', id: 'gaze-section' }, tText(h('h3', { id: 'gaze-title' }), 'expressions.gaze.title'), gazeValues, gazeNote);

  const render = () => {
    const help = t('expressions.gaze.help');
    if (gazeNote.title !== help) gazeNote.title = help;
    const hasGaze = !!studio.avatar?.vrm.lookAt;
    const g = liveGaze ?? (hasGaze ? lookAtAt(autoKey.motion, studio.clock.time) : null);
    gazeValues.hidden = !hasGaze;
    // No gaze key: the eyes look ahead (0°, 0°); typing a value keys it.
    for (const [input, v] of [[gazeYaw, g?.yaw ?? 0], [gazePitch, g?.pitch ?? 0]] as const) {
      if (document.activeElement === input && !liveGaze) continue;
      const text = v.toFixed(1);
      if (input.value !== text) input.value = text;
      input.dataset.value = String(v);
    }
    gazeNote.textContent = !hasGaze ? t('expressions.gaze.none') : g ? help : t('expressions.gaze.ahead');
  };

  const typedGaze = () => {
    const yaw = Number(gazeYaw.value);
    const pitch = Number(gazePitch.value);
    if (!studio.avatar?.vrm.lookAt || gazeYaw.value === '' || gazePitch.value === '') return;
    studio.setPlaying(false);
    const time = studio.keyTime;
    const frame = frameOf(time, studio.fps);
    try {
      const [y, p] = [yaw, pitch].map((v) => formatNumber(v, 1, 1));
      autoKey.poseEdit(setLookAtKey(autoKey.motion, time, yaw, pitch), t('expressions.gaze.undoLabel'), () => t('expressions.gaze.keyed', { yaw: y, pitch: p, frame }));
    } catch (e) {
      studio.messages.error(() => t('expressions.gaze.failed', { detail: errorText(e) }));
    }
    render();
  };

  return {
    element,
    render,
    showLive(g) {
      liveGaze = g;
      render();
    },
  };
}
