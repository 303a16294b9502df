import { describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA_VERSION } from '../../../shared/contract/studioApi';
import { SettingsStore, sanitizeSettings } from '../../../main/services/settingsStore';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-settings-');

describe('settings', () => {
  it('starts from defaults with a schema version, and persists patches', async () => {
    const data = tempDir();
    const s = new SettingsStore(data);
    expect(await s.get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.schemaVersion).toBe(SETTINGS_SCHEMA_VERSION);
    await s.set({ falloffRadius: 0.8, bedroom: { placement: { 'a.vrm': { towardHead: 0.1, towardWall: 0, up: 0, turn: 15 } }, pose: 'left', sides: 'both' } });
    await s.set({ windowBounds: { x: 10, y: 20, width: 1280, height: 800, maximized: false }, lastFolder: '/m' });
    const again = await new SettingsStore(data).get();
    expect(again.falloffRadius).toBe(0.8);
    expect(again.bedroom).toEqual({ ...DEFAULT_SETTINGS.bedroom, placement: { 'a.vrm': { towardHead: 0.1, towardWall: 0, up: 0, turn: 15 } }, pose: 'left', sides: 'both' });
    expect(again.windowBounds).toEqual({ x: 10, y: 20, width: 1280, height: 800, maximized: false });
    expect(again.lastFolder).toBe('/m');
    expect(JSON.parse(readFileSync(join(data, 'settings.json'), 'utf8')).schemaVersion).toBe(SETTINGS_SCHEMA_VERSION);
  });

  it('sets a corrupt file aside and carries on with defaults', async () => {
    const data = tempDir();
    writeFileSync(join(data, 'settings.json'), '{"falloffRadius": 0.9, "bedroom": {');
    const s = new SettingsStore(data);
    expect(await s.get()).toEqual(DEFAULT_SETTINGS);
    expect(s.setAsideTo).toMatch(/settings\.json\.corrupt-/);
    const names = readdirSync(data);
    expect(names.some((n) => n.startsWith('settings.json.corrupt-'))).toBe(true);
    expect(readFileSync(s.setAsideTo!, 'utf8')).toBe('{"falloffRadius": 0.9, "bedroom": {');
    await s.set({ falloffRadius: 0.5 });
    expect((await new SettingsStore(data).get()).falloffRadius).toBe(0.5);
  });

  it('replaces invalid fields one by one and clamps ranges', () => {
    const s = sanitizeSettings({
      schemaVersion: 0,
      falloffRadius: 'big',
      windowBounds: { x: 0, y: 0, width: 50, height: 50 },
      bedroom: { autoSec: 5, pose: 'upside-down', placement: { x: { turn: 30, up: 9 } }, autoTurn: 'yes' },
      lastFolder: 7,
      unknown: true,
    });
    expect(s).toEqual({
      ...DEFAULT_SETTINGS,
      bedroom: { ...DEFAULT_SETTINGS.bedroom, autoSec: 20, placement: { x: { towardHead: 0, towardWall: 0, up: 0.5, turn: 30 } } },
    });
    expect(sanitizeSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(sanitizeSettings([1, 2])).toEqual(DEFAULT_SETTINGS);
  });
});
