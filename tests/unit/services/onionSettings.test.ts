/** The onion skin's part of the one Settings type: defaults, sanitizing, merging a patch, persisting. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeSettings, SettingsStore } from '../../../main/services/settingsStore';
import { DEFAULT_SETTINGS } from '../../../shared/contract/studioApi';
import { validateArgs } from '../../../shared/contract/validate';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-onion-');

it('defaults off at 0.2 s; stored values are sanitized (to the hundredth, clamped to 0.02..2 s); old settings in frames read at 30 fps', () => {
  expect(DEFAULT_SETTINGS.onionSkin).toEqual({ enabled: false, seconds: 0.2 });
  expect(sanitizeSettings({}).onionSkin).toEqual({ enabled: false, seconds: 0.2 });
  expect(sanitizeSettings({ onionSkin: { enabled: true, seconds: 0.456 } }).onionSkin).toEqual({ enabled: true, seconds: 0.46 });
  expect(sanitizeSettings({ onionSkin: { enabled: 'yes', seconds: 500 } }).onionSkin).toEqual({ enabled: false, seconds: 2 });
  expect(sanitizeSettings({ onionSkin: { seconds: -3 } }).onionSkin).toEqual({ enabled: false, seconds: 0.02 });
  expect(sanitizeSettings({ onionSkin: 'on' }).onionSkin).toEqual({ enabled: false, seconds: 0.2 });
  // A settings.json from before seconds: 6 frames were shown at 30 fps as 0.2 s.
  expect(sanitizeSettings({ onionSkin: { enabled: true, frames: 6 } }).onionSkin).toEqual({ enabled: true, seconds: 0.2 });
  expect(sanitizeSettings({ onionSkin: { frames: 60 } }).onionSkin).toEqual({ enabled: false, seconds: 2 });
});

it('a patch of one field keeps the other and is written to settings.json; the contract checks the types', async () => {
  const dir = tempDir();
  const store = new SettingsStore(dir);
  await store.set({ onionSkin: { enabled: true } });
  expect((await store.set({ onionSkin: { seconds: 0.5 } })).onionSkin).toEqual({ enabled: true, seconds: 0.5 });
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).onionSkin).toEqual({ enabled: true, seconds: 0.5 });
  expect((await new SettingsStore(dir).get()).onionSkin).toEqual({ enabled: true, seconds: 0.5 });
  expect(() => validateArgs('setSettings', [{ onionSkin: { enabled: 1 } }])).toThrow(/onionSkin/);
  expect(() => validateArgs('setSettings', [{ onionSkin: { seconds: Number.NaN } }])).toThrow(/onionSkin/);
  // The old field is no longer part of the contract: a page cannot write frames.
  expect(() => validateArgs('setSettings', [{ onionSkin: { frames: 5 } }])).toThrow(/onionSkin/);
});
