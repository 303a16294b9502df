/**
 * The onion skin's controls: the View menu command (onion.toggle, checked while on), a checkbox and
 * the ±N frames field in the transport bar, and the setting in the studio's one Settings type
 * (onionSkin { enabled, seconds }, through the studio's one settings client), read at start and written on change.
 */
import type { Studio } from '../app/studio';
import type { Viewport } from './viewport';
import { h, labelled } from '../ui/dom';
import { t } from '../../shared/i18n';
import { ONION_SKIN_SECONDS } from '../../shared/contract/studioApi';
import { OnionSkin } from './onionSkin';

export function createOnionSkin(studio: Studio, viewport: Viewport): { onion: OnionSkin; element: HTMLElement } {
  const onion = new OnionSkin(studio, viewport);
  studio.commands.register({
    id: 'onion.toggle',
    label: 'Onion skin',
    description: 'Show ghost poses a moment before and after the playhead',
    menu: 'view',
    isChecked: () => onion.enabled,
    run: () => onion.set({ enabled: !onion.enabled }),
  });

  const toggle = h('input', { type: 'checkbox', id: 'onion-toggle' }) as HTMLInputElement;
  toggle.addEventListener('change', () => onion.set({ enabled: toggle.checked }));
  const seconds = h('input', {
    type: 'number',
    id: 'onion-seconds',
    min: ONION_SKIN_SECONDS.min,
    max: ONION_SKIN_SECONDS.max,
    step: ONION_SKIN_SECONDS.step,
    value: onion.seconds,
  }) as HTMLInputElement;
  seconds.addEventListener('change', () => {
    const v = Number(seconds.value);
    if (Number.isFinite(v)) onion.set({ seconds: v });
    seconds.value = String(onion.seconds);
  });
  const show = () => {
    toggle.checked = onion.enabled;
    if (document.activeElement !== seconds) seconds.value = String(onion.seconds);
  };

  // Saved in the settings; the saved value is applied once it is read (and saving it back is skipped).
  let loaded = false;
  onion.onChange((s) => {
    show();
    studio.commands.changed();
    // Not stored (no settings service): the choice lasts for this page.
    if (loaded) studio.settings.set({ onionSkin: s }).catch(() => undefined);
  });
  void studio.settings.ready().then((s) => {
    onion.set(s.onionSkin);
    loaded = true;
  });

  const element = h(
    'span',
    { class: 'onion-controls' },
    labelled(() => t('onion.toggle.label'), toggle, () => t('onion.toggle.help')),
    labelled(() => t('onion.seconds'), seconds, () => t('onion.secondsHelp')),
  );
  show();
  return { onion, element };
}
