/** The splitters' part of the one Settings type (issue 27): defaults, sanitizing, merging a patch, persisting. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeSettings, SettingsStore } from '../../../main/services/settingsStore';
import { DEFAULT_SETTINGS, PANEL_SIZES } from '../../../shared/contract/studioApi';
import { validateArgs } from '../../../shared/contract/validate';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-panels-');

it('defaults to the layout (null); stored sizes are rounded and clamped to the PANEL_SIZES table', () => {
  expect(DEFAULT_SETTINGS.panels).toEqual({ left: null, right: null, dopeSheet: null });
  expect(sanitizeSettings({}).panels).toEqual({ left: null, right: null, dopeSheet: null });
  expect(sanitizeSettings({ panels: { left: 300.4, right: 10, dopeSheet: 5000 } }).panels).toEqual({ left: 300, right: PANEL_SIZES.right.min, dopeSheet: PANEL_SIZES.dopeSheet.max });
  expect(sanitizeSettings({ panels: { left: 'wide', dopeSheet: Number.NaN } }).panels).toEqual({ left: null, right: null, dopeSheet: null });
  expect(sanitizeSettings({ panels: 'big' }).panels).toEqual({ left: null, right: null, dopeSheet: null });
});

it('a patch of one panel keeps the others and is written to settings.json; the contract checks the types', async () => {
  const dir = tempDir();
  const store = new SettingsStore(dir);
  await store.set({ panels: { dopeSheet: 320 } });
  expect((await store.set({ panels: { left: 260 } })).panels).toEqual({ left: 260, right: null, dopeSheet: 320 });
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).panels).toEqual({ left: 260, right: null, dopeSheet: 320 });
  expect((await new SettingsStore(dir).get()).panels).toEqual({ left: 260, right: null, dopeSheet: 320 });
  // null goes back to the layout's default.
  expect((await store.set({ panels: { left: null } })).panels).toEqual({ left: null, right: null, dopeSheet: 320 });
  expect(() => validateArgs('setSettings', [{ panels: { left: '260px' } }])).toThrow(/panels/);
  expect(() => validateArgs('setSettings', [{ panels: { dopeSheet: Number.POSITIVE_INFINITY } }])).toThrow(/panels/);
});
