/**
 * Auto-key (app/autoKey.ts) and its toggle command: Shift+K, in the Edit menu, and the transport bar's
 * record button. K stays insert key; the toggle says which way it went.
 */
import type { Studio } from '../app/studio';
import { AutoKey } from '../app/autoKey';
import { t } from '../../shared/i18n';

/** Auto-key and its toggle command (Shift+K: K inserts a key; the toggle says which way it went). */
export function createAutoKey(studio: Studio): AutoKey {
  const autoKey = new AutoKey(studio);
  studio.commands.register({
    id: 'keys.autoKey',
    label: 'Auto-key',
    description: 'Key pose edits at the playhead',
    shortcuts: ['Shift+K'],
    menu: 'edit',
    isChecked: () => autoKey.enabled,
    run: () => {
      const on = !autoKey.enabled;
      autoKey.set(on);
      studio.messages.show('notice', () => t(on ? 'autoKey.on' : 'autoKey.off'), { group: 'autoKey' });
    },
  });
  return autoKey;
}
