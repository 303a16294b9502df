/** The Export menu's last format in the one Settings type (issue 26): default, sanitizing, the contract's check, persisting. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeSettings, SettingsStore } from '../../../main/services/settingsStore';
import { DEFAULT_SETTINGS } from '../../../shared/contract/studioApi';
import { validateArgs } from '../../../shared/contract/validate';
import { EXPORTERS, EXPORT_FORMATS } from '../../../shared/export/index';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-export-format-');

it('defaults to vmd; a stored value that is not an export format falls back to it', () => {
  expect(DEFAULT_SETTINGS.exportFormat).toBe('vmd');
  expect(sanitizeSettings({}).exportFormat).toBe('vmd');
  expect(sanitizeSettings({ exportFormat: 'fbx' }).exportFormat).toBe('fbx');
  expect(sanitizeSettings({ exportFormat: 'vrma' }).exportFormat).toBe('vmd');
  expect(sanitizeSettings({ exportFormat: 3 }).exportFormat).toBe('vmd');
});

it("the ids are the exporters' own, one list", () => {
  expect([...EXPORT_FORMATS].sort()).toEqual(Object.keys(EXPORTERS).sort());
  for (const f of EXPORT_FORMATS) expect(EXPORTERS[f].ext).toBe(f);
});

it('a patch is written to settings.json and read back by a new store; the contract refuses other values', async () => {
  const dir = tempDir();
  const store = new SettingsStore(dir);
  await store.set({ onionSkin: { enabled: true } });
  expect((await store.set({ exportFormat: 'glb' })).exportFormat).toBe('glb');
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).exportFormat).toBe('glb');
  const again = await new SettingsStore(dir).get();
  expect(again.exportFormat).toBe('glb');
  expect(again.onionSkin.enabled).toBe(true);
  expect(() => validateArgs('setSettings', [{ exportFormat: 'obj' }])).toThrow(/exportFormat/);
  expect(() => validateArgs('setSettings', [{ exportFormat: 'bvh' }])).not.toThrow();
});
