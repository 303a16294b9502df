/**
 * The first calls the studio needs before it builds anything: the StudioApi, the settings (read at
 * once) and whether the test hook is on (getPlatform, answered once per page). renderer/main.ts asks
 * them as soon as the browser host's session is there, while the studio's own chunk is still loading
 * (issue 30: the first frame).
 */
import type { StudioApi } from '../../shared/contract/studioApi';
import { SettingsClient } from '../app/settings';
import { getStudioApi } from './studioApi';
import { testHookEnabled } from './testHookEnabled';

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
  return { api, settings: new SettingsClient(api) };
}
