/** Capture's Hands and Face choices in the one Settings type (issue 29): default off, sanitizing, merged patches, persisting. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeSettings, SettingsStore } from '../../../main/services/settingsStore';
import { applySettingsPatch, DEFAULT_SETTINGS } from '../../../shared/contract/studioApi';
import { validateArgs } from '../../../shared/contract/validate';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-capture-settings-');

it('both off by default; a stored value that is not a flag reads as off', () => {
  expect(DEFAULT_SETTINGS.capture).toEqual({ hands: false, face: false });
  expect(sanitizeSettings({ capture: { hands: true } }).capture).toEqual({ hands: true, face: false });
  expect(sanitizeSettings({ capture: { hands: 'yes', face: 1 } }).capture).toEqual({ hands: false, face: false });
  expect(sanitizeSettings({ capture: 'hands' }).capture).toEqual({ hands: false, face: false });
});

it('a patch of one choice keeps the other', () => {
  const a = applySettingsPatch(DEFAULT_SETTINGS, { capture: { face: true } });
  expect(applySettingsPatch(a, { capture: { hands: true } }).capture).toEqual({ hands: true, face: true });
});

it('is written to settings.json and read back by a new store; the contract refuses other values', async () => {
  const dir = tempDir();
  const store = new SettingsStore(dir);
  expect((await store.set({ capture: { hands: true } })).capture).toEqual({ hands: true, face: false });
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).capture).toEqual({ hands: true, face: false });
  expect((await new SettingsStore(dir).get()).capture).toEqual({ hands: true, face: false });
  expect(() => validateArgs('setSettings', [{ capture: { hands: 'on' } }])).toThrow(/capture/);
  expect(() => validateArgs('setSettings', [{ capture: { face: true } }])).not.toThrow();
});
