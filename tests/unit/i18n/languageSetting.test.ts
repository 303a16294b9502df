/** The UI language is remembered in the settings file; older files and bad values fall back to 'system'. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SettingsStore, sanitizeSettings } from '../../../main/services/settingsStore';
import { validateArgs } from '../../../shared/contract/validate';
import { useTempDirs } from '../services/tempDir';

const tempDir = useTempDirs('vrma-language-');

describe('language setting', () => {
  it('defaults to following the system, persists a choice across stores', async () => {
    const data = tempDir();
    const s = new SettingsStore(data);
    expect((await s.get()).language).toBe('system');
    await s.set({ language: 'ja' });
    expect(JSON.parse(readFileSync(join(data, 'settings.json'), 'utf8')).language).toBe('ja');
    expect((await new SettingsStore(data).get()).language).toBe('ja');
    await s.set({ falloffRadius: 0.7 });
    expect((await new SettingsStore(data).get()).language).toBe('ja');
  });

  it('a settings file from before the field, or with an unknown language, follows the system', () => {
    expect(sanitizeSettings({ schemaVersion: 1, falloffRadius: 0.5 }).language).toBe('system');
    expect(sanitizeSettings({ language: 'fr' }).language).toBe('system');
    expect(sanitizeSettings({ language: 'en' }).language).toBe('en');
  });

  it('the IPC/host boundary accepts only the known languages', () => {
    expect(() => validateArgs('setSettings', [{ language: 'ja' }])).not.toThrow();
    expect(() => validateArgs('setSettings', [{ language: 'klingon' }])).toThrow(/language/);
  });
});
