/**
 * Where settings, the recent list and autosave live. The Electron app and the browser host use the
 * same folder so a session autosaved in one can be recovered in the other:
 *   Linux   $XDG_CONFIG_HOME/vrma-studio (~/.config/vrma-studio)
 *   macOS   ~/Library/Application Support/vrma-studio
 *   Windows %APPDATA%\vrma-studio
 * VRMA_USER_DATA overrides it (tests, portable installs).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const USER_DATA_FOLDER_NAME = 'vrma-studio';

export function appDataDir(): string {
  if (process.platform === 'win32') return process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
}

export function userDataDir(): string {
  const override = process.env.VRMA_USER_DATA;
  return override ? resolve(override) : join(appDataDir(), USER_DATA_FOLDER_NAME);
}
