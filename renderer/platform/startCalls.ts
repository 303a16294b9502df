/**
 * The first calls the studio needs before it builds anything: the StudioApi, the settings (read at
 * once), whether the test hook is on (getPlatform, answered once per page) and the system language's
 * messages. renderer/main.ts asks
 * them as soon as the browser host's session is there, while the studio's own chunk is still loading
 * (issue 30: the first frame).
 */
import type { StudioApi } from '../../shared/contract/studioApi';
import { SettingsClient } from '../app/settings';
import { getStudioApi } from './studioApi';
import { testHookEnabled } from './testHookEnabled';
import { systemLocale } from '../app/language';
import { loadLocale } from '../../shared/i18n';

export interface StartCalls {
  readonly api: StudioApi | null;
  readonly settings: SettingsClient;
}

export function startCalls(): StartCalls {
  let api: StudioApi | null = null;
  try {
    api = getStudioApi();
  } catch {
    // No Electron bridge and no host to talk to: the studio still works on files opened in the page.
  }
  void testHookEnabled();
  // The system's language is the one a page shows unless the user chose another (most do not): its
  // messages are fetched beside the settings, not after them (for nothing when English was chosen on a
  // Japanese system: one small chunk). A failure is retried when the language is applied.
  loadLocale(systemLocale()).catch(() => undefined);
  return { api, settings: new SettingsClient(api) };
}
