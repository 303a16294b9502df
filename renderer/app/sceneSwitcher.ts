/**
 * Studio | Bedroom switcher. The Bedroom scene comes from renderer/bedroom/index.ts
 * (mountBedroom(root, ctx) -> { dispose }), loaded lazily on first use; the URL hash #bedroom
 * opens it directly. While the Bedroom shows, the studio stops drawing and playing.
 */
import type { Studio } from './studio';
import type { StudioApi } from '../../shared/contract/studioApi';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { t } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';

export interface BedroomSettingsStore {
  get(): unknown;
  set(value: unknown): void;
}

export interface BedroomContext {
  getAvatarBytes(): Uint8Array;
  readUserFile?(name: string): Promise<Uint8Array>;
  listPoseFiles?(): Promise<{ path: string; name: string }[]>;
  onPoseFilesChanged?(cb: () => void): () => void;
  settings: BedroomSettingsStore;
}

type BedroomModule = {
  mountBedroom(root: HTMLElement, ctx: BedroomContext): { dispose(): void };
  listPoseFiles(source: Pick<StudioApi, 'listLibrary' | 'describeFile'>): Promise<{ path: string; name: string }[]>;
};
const bedroomModules = import.meta.glob<BedroomModule>('../bedroom/index.ts');

const SETTINGS_KEY = 'vrma-studio.bedroom';

type SceneSettings = { pose?: unknown; autoTurn?: unknown; autoSec?: unknown; offsets?: { x?: unknown; y?: unknown; z?: unknown; yaw?: unknown }; poseFile?: unknown; poseFileSlot?: unknown };

/**
 * The Bedroom's settings live in the StudioApi settings (contract shape: offsetX/Y/Z, yaw, pose,
 * autoTurn, autoSec) so they survive like the rest; the pose file path and its slot, which the
 * contract does not hold, and a copy for hosts without settings go to localStorage. The Bedroom sanitizes
 * whatever it reads.
 */
function bedroomSettings(studio: Studio): BedroomSettingsStore {
  const local = (): SceneSettings | undefined => {
    try {
      const raw = localStorage.getItem(SETTINGS_KEY);
      return raw ? (JSON.parse(raw) as SceneSettings) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    get: () => {
      const fromApi = studio.settings?.bedroom;
      const stored = local();
      if (!fromApi) return stored;
      return {
        pose: fromApi.pose,
        autoTurn: fromApi.autoTurn,
        autoSec: fromApi.autoSec,
        offsets: { x: fromApi.offsetX, y: fromApi.offsetY, z: fromApi.offsetZ, yaw: fromApi.yaw },
        poseFile: stored?.poseFile,
        poseFileSlot: stored?.poseFileSlot,
      };
    },
    set: (value) => {
      try {
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(value));
      } catch {
        /* storage unavailable: the API copy below still keeps them */
      }
      const v = value as SceneSettings;
      const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
      const bedroom = {
        offsetX: num(v.offsets?.x),
        offsetY: num(v.offsets?.y),
        offsetZ: num(v.offsets?.z),
        yaw: num(v.offsets?.yaw),
        pose: v.pose === 'back' || v.pose === 'side' ? v.pose : undefined,
        autoTurn: typeof v.autoTurn === 'boolean' ? v.autoTurn : undefined,
        autoSec: num(v.autoSec),
      };
      const patch = Object.fromEntries(Object.entries(bedroom).filter(([, x]) => x !== undefined));
      studio.api
        ?.setSettings({ bedroom: patch })
        .then((s) => (studio.settings = s))
        .catch(() => {});
    },
  };
}

export function createSceneSwitcher(studio: Studio, studioView: HTMLElement, bedroomView: HTMLElement) {
  const loadBedroom = Object.values(bedroomModules)[0] as (() => Promise<BedroomModule>) | undefined;
  const studioTab = h('button', { type: 'button', role: 'tab', id: 'tab-studio', 'aria-selected': 'true' }) as HTMLButtonElement;
  tAttr(tText(studioTab, 'studio.scene.studio'), 'title', 'studio.scene.studioHelp');
  const bedroomTab = h('button', { type: 'button', role: 'tab', id: 'tab-bedroom', 'aria-selected': 'false', disabled: !loadBedroom }) as HTMLButtonElement;
  tAttr(tText(bedroomTab, 'studio.scene.bedroom'), 'title', loadBedroom ? 'studio.scene.bedroomHelp' : 'studio.scene.bedroomUnavailable');
  const element = tAttr(h('div', { class: 'scene-switcher', role: 'tablist' }, studioTab, bedroomTab), 'aria-label', 'studio.scene.label');
  let mounted: { dispose(): void } | null = null;
  let bedroom = false;
  let wasPlaying = false;

  const show = async (toBedroom: boolean) => {
    if (toBedroom === bedroom) return;
    if (toBedroom && !loadBedroom) return;
    bedroom = toBedroom;
    studioTab.setAttribute('aria-selected', String(!toBedroom));
    bedroomTab.setAttribute('aria-selected', String(toBedroom));
    studioView.hidden = toBedroom;
    bedroomView.hidden = !toBedroom;
    if (toBedroom) {
      wasPlaying = studio.clock.playing;
      studio.setPlaying(false);
      studio.viewport.stop();
      if (location.hash !== '#bedroom') history.replaceState(null, '', '#bedroom');
      try {
        const mod = await loadBedroom!();
        const api = studio.api;
        mounted = mod.mountBedroom(bedroomView, {
          getAvatarBytes: () => studio.avatar?.bytes ?? new Uint8Array(),
          readUserFile: api ? (name) => api.readFile(name) : undefined,
          listPoseFiles: api ? () => mod.listPoseFiles(api) : undefined,
          onPoseFilesChanged: api ? (cb) => api.onLibraryChanged(() => cb()) : undefined,
          settings: bedroomSettings(studio),
        });
      } catch (e) {
        studio.messages.error(() => t('studio.scene.bedroomFailed', { detail: errorText(e) }));
      }
    } else {
      mounted?.dispose();
      mounted = null;
      bedroomView.replaceChildren();
      if (location.hash === '#bedroom') history.replaceState(null, '', location.pathname + location.search);
      studio.viewport.start();
      studio.viewport.resize();
      if (wasPlaying) studio.setPlaying(true);
    }
  };
  studioTab.addEventListener('click', () => void show(false));
  bedroomTab.addEventListener('click', () => void show(true));
  window.addEventListener('hashchange', () => void show(location.hash === '#bedroom'));
  const ready = location.hash === '#bedroom' ? show(true) : Promise.resolve();
  return { element, ready, isBedroom: () => bedroom, show };
}
