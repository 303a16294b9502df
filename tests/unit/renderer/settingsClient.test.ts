/**
 * The page's one settings client (renderer/app/settings.ts) against a StudioApi built in the test
 * that stores what it is sent through main's own SettingsStore on a real settings.json, and against
 * a page storage built in the test (a static build without a StudioApi).
 */
import { describe, expect, it } from 'vitest';
import { SettingsClient, type SettingsStorage } from '../../../renderer/app/settings';
import { SettingsStore } from '../../../main/services/settingsStore';
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch, type StudioApi } from '../../../shared/contract/studioApi';
import { useTempDirs } from '../services/tempDir';

const tempDir = useTempDirs('vrma-settings-client-');

/** getSettings and setSettings of main's store; `gate` holds getSettings until the test opens it. */
function storeApi(store: SettingsStore, opts: { gate?: Promise<void>; refuse?: boolean } = {}) {
  const sent: SettingsPatch[] = [];
  const api = {
    getSettings: async () => {
      await opts.gate;
      return store.get();
    },
    setSettings: async (patch: SettingsPatch) => {
      sent.push(patch);
      if (opts.refuse) throw new Error('settings.json is read-only');
      return store.set(patch);
    },
  } as unknown as StudioApi;
  return { api, sent };
}

describe('SettingsClient', () => {
  it('reads the stored settings once, and a change made before they arrived is kept over them, in the page and in main', async () => {
    const data = tempDir();
    await new SettingsStore(data).set({ falloffRadius: 1.5, exportFormat: 'fbx' });
    let open!: () => void;
    const { api } = storeApi(new SettingsStore(data), { gate: new Promise<void>((r) => (open = r)) });
    const client = new SettingsClient(api);
    const heard: (string | null)[] = [];
    client.onChange((s, patch) => heard.push(patch ? Object.keys(patch).join() : `loaded ${s.falloffRadius} ${s.exportFormat} ${s.exportSmallerFile}`));
    expect(client.value).toEqual(DEFAULT_SETTINGS);
    const early = client.set({ exportSmallerFile: true });
    expect(client.value.exportSmallerFile).toBe(true); // at once
    open();
    const ready = await client.ready();
    await early;
    expect(ready).toMatchObject({ falloffRadius: 1.5, exportFormat: 'fbx', exportSmallerFile: true });
    expect(heard).toEqual(['exportSmallerFile', 'loaded 1.5 fbx true']);
    expect(await new SettingsStore(data).get()).toMatchObject({ falloffRadius: 1.5, exportFormat: 'fbx', exportSmallerFile: true });
  });

  it('applies a change clamped as main stores it; a change main could not store still holds for the page and the caller hears why', async () => {
    const data = tempDir();
    const { api, sent } = storeApi(new SettingsStore(data), { refuse: true });
    const client = new SettingsClient(api);
    await client.ready();
    await expect(client.set({ onionSkin: { seconds: 9 }, panels: { left: 10 } })).rejects.toThrow('read-only');
    expect(sent).toEqual([{ onionSkin: { seconds: 9 }, panels: { left: 10 } }]);
    expect(client.value.onionSkin).toEqual({ enabled: false, seconds: 2 });
    expect(client.value.panels).toEqual({ left: 150, right: null, dopeSheet: null });
  });

  it('without a StudioApi keeps the settings in the page storage under one key, read back by the next page', async () => {
    const items = new Map<string, string>();
    const storage: SettingsStorage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
    const first = new SettingsClient(null, storage);
    await first.set({ language: 'ja' });
    await first.set({ bedroom: { autoSec: 300 } });
    expect([...items.keys()]).toEqual(['vrma-studio.settings']);
    const next = new SettingsClient(null, storage);
    const s: Settings = await next.ready();
    expect(s.language).toBe('ja');
    expect(s.bedroom.autoSec).toBe(300);
    items.set('vrma-studio.settings', '{not json');
    expect(await new SettingsClient(null, storage).ready()).toEqual(DEFAULT_SETTINGS);
  });
});
