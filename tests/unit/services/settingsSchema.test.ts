/**
 * Settings once (issue 22 item 7): settings.json is read by the contract's one valibot schema
 * (shared/contract/settings.ts) and patched by applySettingsPatch. A file written by hand here, with
 * out-of-range, missing, wrongly typed and legacy values, reads through the real SettingsStore to the
 * clamped values and the defaults; numbers are compared exactly (the clamps are exact, rounding to
 * the stated step: 1/100 s for the onion skin, 1 px for panels, 1 s for the bedroom's turn-over).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  FALLOFF_SECONDS,
  ONION_SKIN_SECONDS,
  PANEL_SIZES,
  readSettings,
  SettingsSchema,
} from '../../../shared/contract/studioApi';
import { SettingsPatchSchema } from '../../../shared/contract/schema';
import { validateArgs } from '../../../shared/contract/validate';
import { SettingsStore } from '../../../main/services/settingsStore';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-settings-schema-');

describe('settings from the schema', () => {
  it('the defaults are what an empty object reads to, with the ranges the schema clamps to', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      schemaVersion: 1,
      windowBounds: null,
      falloffRadius: 0.4,
      autoKey: true,
      bedroom: { pose: 'back', sides: 'right', autoTurn: true, autoSec: 120, placement: {}, poseFiles: {}, sound: { muted: false, volume: 0.5 } },
      lastFolder: null,
      language: 'system',
      onionSkin: { enabled: false, seconds: 0.2 },
      exportFormat: 'vmd',
      exportSmallerFile: false,
      capture: { hands: false, face: false },
      panels: { left: null, right: null, dopeSheet: null },
    });
    expect(FALLOFF_SECONDS.default).toBe(DEFAULT_SETTINGS.falloffRadius);
    expect(ONION_SKIN_SECONDS.default).toBe(DEFAULT_SETTINGS.onionSkin.seconds);
    // Every field of the schema is a field of the patch, and the other way round (but the version).
    expect(Object.keys(SettingsPatchSchema.entries).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).filter((k) => k !== 'schemaVersion').sort());
    expect(v.safeParse(SettingsSchema, 'not an object').output).toEqual(DEFAULT_SETTINGS);
  });

  it('a hand-written settings.json with out-of-range, missing, wrong and legacy values reads to the clamped values and the defaults', async () => {
    const data = tempDir();
    const file = {
      schemaVersion: 0,
      windowBounds: { x: 10, y: 20, width: 1280, height: 800, maximized: 'yes' },
      falloffRadius: 25,
      autoKey: 'off', // not a boolean: the default (on)
      bedroom: {
        pose: 'side', // version 1's right side
        sides: 'both',
        autoTurn: 'no',
        autoSec: 61.6,
        placement: { 'robot.vrm': { towardHead: 3, towardWall: -0.25, turn: 400 }, '': { up: 0.1 } },
        poseFiles: { back: '', side: '/poses/side.vrma' },
        sound: { volume: -2 },
        offsetX: 0.3, // a field of an old version
      },
      // lastFolder missing
      language: 'fr',
      onionSkin: { enabled: true, frames: 9 }, // frames, from before the offset was in seconds: 9 / 30 = 0.3 s
      exportFormat: 'vrma',
      exportSmallerFile: 1,
      capture: { hands: true, face: 'yes' },
      panels: { left: 149.6, right: 9999, dopeSheet: 'tall' },
      unknown: { x: 1 },
    };
    writeFileSync(join(data, 'settings.json'), JSON.stringify(file));
    const store = new SettingsStore(data);
    const s = await store.get();
    expect(store.setAsideTo).toBeNull();
    expect(s).toEqual({
      schemaVersion: 1,
      windowBounds: { x: 10, y: 20, width: 1280, height: 800, maximized: false },
      falloffRadius: FALLOFF_SECONDS.max,
      autoKey: true,
      bedroom: {
        pose: 'right',
        sides: 'both',
        autoTurn: true,
        autoSec: 62,
        placement: { 'robot.vrm': { towardHead: 0.5, towardWall: -0.25, up: 0, turn: 180 } },
        poseFiles: { side: '/poses/side.vrma' },
        sound: { muted: false, volume: 0 },
      },
      lastFolder: null,
      language: 'system',
      onionSkin: { enabled: true, seconds: 0.3 },
      exportFormat: 'vmd',
      exportSmallerFile: false,
      capture: { hands: true, face: false },
      panels: { left: PANEL_SIZES.left.min, right: PANEL_SIZES.right.max, dopeSheet: null },
    });
    // The bounds of the other ranges, and a window too small to restore.
    expect(readSettings({ falloffRadius: -1, onionSkin: { seconds: 0.004 }, bedroom: { autoSec: 1 }, windowBounds: { x: 0, y: 0, width: 199, height: 600 } })).toMatchObject({
      falloffRadius: FALLOFF_SECONDS.min,
      onionSkin: { enabled: false, seconds: ONION_SKIN_SECONDS.min },
      bedroom: { autoSec: 20 },
      windowBounds: null,
    });
    // A patch is stored read through the same schema: written back clamped, and the file has no unknown field left.
    await store.set({ falloffRadius: 0.75, exportSmallerFile: true });
    const written = JSON.parse(readFileSync(join(data, 'settings.json'), 'utf8'));
    expect(written).toEqual({ ...s, falloffRadius: 0.75, exportSmallerFile: true });
    expect(await new SettingsStore(data).get()).toEqual(written);
  });

  it('a patch replaces the fields it names and merges an object of settings one level: a bedroom placement or pose file it leaves out is gone', () => {
    let s = applySettingsPatch(DEFAULT_SETTINGS, { panels: { left: 300 }, bedroom: { placement: { a: { towardHead: 0.1, towardWall: 0, up: 0, turn: 0 } }, poseFiles: { back: '/b.vrma' } } });
    s = applySettingsPatch(s, { panels: { right: 400.4 }, bedroom: { placement: { b: { towardHead: 0, towardWall: 0, up: 0.2, turn: 0 } }, poseFiles: {} } });
    expect(s.panels).toEqual({ left: 300, right: 400, dopeSheet: null });
    expect(s.bedroom.placement).toEqual({ b: { towardHead: 0, towardWall: 0, up: 0.2, turn: 0 } });
    expect(s.bedroom.poseFiles).toEqual({});
    expect(applySettingsPatch(s, { windowBounds: null, onionSkin: { seconds: 7 } })).toMatchObject({ windowBounds: null, onionSkin: { enabled: false, seconds: 2 } });
    // The call's own check still refuses what is not a setting at all, with a message.
    expect(() => validateArgs('setSettings', [{ exportSmallerFile: 'yes' }])).toThrow(/exportSmallerFile must be true or false/);
    expect(() => validateArgs('setSettings', [{ autoKey: 'off' }])).toThrow(/autoKey must be true or false/);
    expect(readSettings({ autoKey: false }).autoKey).toBe(false);
  });
});
