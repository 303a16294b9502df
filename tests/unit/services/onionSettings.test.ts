/** The onion skin's part of the one Settings type: defaults, sanitizing, merging a patch, persisting. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeSettings, SettingsStore } from '../../../main/services/settingsStore';
import { DEFAULT_SETTINGS } from '../../../shared/contract/studioApi';
import { validateArgs } from '../../../shared/contract/validate';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-onion-');

it('defaults off at 5 frames; stored values are sanitized (N rounded and clamped to 1..60)', () => {
  expect(DEFAULT_SETTINGS.onionSkin).toEqual({ enabled: false, frames: 5 });
  expect(sanitizeSettings({}).onionSkin).toEqual({ enabled: false, frames: 5 });
  expect(sanitizeSettings({ onionSkin: { enabled: true, frames: 7.6 } }).onionSkin).toEqual({ enabled: true, frames: 8 });
  expect(sanitizeSettings({ onionSkin: { enabled: 'yes', frames: 500 } }).onionSkin).toEqual({ enabled: false, frames: 60 });
  expect(sanitizeSettings({ onionSkin: { frames: -3 } }).onionSkin).toEqual({ enabled: false, frames: 1 });
  expect(sanitizeSettings({ onionSkin: 'on' }).onionSkin).toEqual({ enabled: false, frames: 5 });
});

it('a patch of one field keeps the other and is written to settings.json; the contract checks the types', async () => {
  const dir = tempDir();
  const store = new SettingsStore(dir);
  await store.set({ onionSkin: { enabled: true } });
  expect((await store.set({ onionSkin: { frames: 12 } })).onionSkin).toEqual({ enabled: true, frames: 12 });
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).onionSkin).toEqual({ enabled: true, frames: 12 });
  expect((await new SettingsStore(dir).get()).onionSkin).toEqual({ enabled: true, frames: 12 });
  expect(() => validateArgs('setSettings', [{ onionSkin: { enabled: 1 } }])).toThrow(/onionSkin/);
  expect(() => validateArgs('setSettings', [{ onionSkin: { frames: Number.NaN } }])).toThrow(/onionSkin/);
});
