/**
 * Studio | Bedroom switcher. The Bedroom scene comes from renderer/bedroom/index.ts
 * (mountBedroom(root, ctx) -> { dispose }), loaded lazily on first use; the URL hash #bedroom
 * opens it directly. While the Bedroom shows, the studio stops drawing and playing.
 */
import type { Studio } from '../app/studio';
import type { Viewport } from '../viewport/viewport';
import type { StudioApi } from '../../shared/contract/studioApi';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { t } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';
import type { BedroomContext } from '../bedroom/context';
import { libraryMirror } from '../app/libraryState';
import type { BedroomSettings } from '../../shared/contract/bedroomSettings';

type BedroomModule = {
  mountBedroom(root: HTMLElement, ctx: BedroomContext): { dispose(): void };
  listPoseFiles(source: Pick<StudioApi, 'listLibrary' | 'describeFile'>): Promise<{ path: string; name: string }[]>;
};
const bedroomModules = import.meta.glob<BedroomModule>('../bedroom/index.ts');

/** Top-bar buttons that act on the studio's document only. */
const STUDIO_ONLY = '[data-command="edit.undo"], [data-command="edit.redo"], [data-command="view.frame"]';

/**
 * The bedroom's settings are a part of the studio's Settings (one schema, shared/contract/bedroomSettings.ts),
 * read and changed through the studio's one settings client (kept by the StudioApi, or without one in
 * the page's storage).
 */
function bedroomSettings(studio: Studio): BedroomContext['settings'] {
  return {
    get: () => studio.settings.value.bedroom,
    set: (value: BedroomSettings) => {
      studio.settings.set({ bedroom: value }).catch((e) => studio.messages.error(() => t('bedroom.msg.settingsFailed', { detail: errorText(e) })));
    },
  };
}

export function createSceneSwitcher(studio: Studio, viewport: Viewport, studioView: HTMLElement, bedroomView: HTMLElement) {
  const loadBedroom = Object.values(bedroomModules)[0] as (() => Promise<BedroomModule>) | undefined;
  const studioTab = h('button', { type: 'button', role: 'tab', id: 'tab-studio', 'aria-selected': 'true' }) as HTMLButtonElement;
  tAttr(tText(studioTab, 'studio.scene.studio'), 'title', 'studio.scene.studioHelp');
  const bedroomTab = h('button', { type: 'button', role: 'tab', id: 'tab-bedroom', 'aria-selected': 'false', disabled: !loadBedroom }) as HTMLButtonElement;
  tAttr(tText(bedroomTab, 'studio.scene.bedroom'), 'title', loadBedroom ? 'studio.scene.bedroomHelp' : 'studio.scene.bedroomUnavailable');
  const element = tAttr(h('div', { class: 'scene-switcher', role: 'tablist' }, studioTab, bedroomTab), 'aria-label', 'studio.scene.label');
  let mounted: { dispose(): void } | null = null;
  let bedroom = false;
  let wasPlaying = false;

  // The studio's Undo/Redo and Frame act on the motion, not on the bedroom: hidden while it shows.
  const syncStudioButtons = () => element.parentElement?.querySelectorAll<HTMLElement>(STUDIO_ONLY).forEach((b) => (b.hidden = bedroom));
  const show = async (toBedroom: boolean) => {
    if (toBedroom === bedroom) return;
    if (toBedroom && !loadBedroom) return;
    bedroom = toBedroom;
    studioTab.setAttribute('aria-selected', String(!toBedroom));
    bedroomTab.setAttribute('aria-selected', String(toBedroom));
    studioView.hidden = toBedroom;
    bedroomView.hidden = !toBedroom;
    syncStudioButtons();
    if (toBedroom) {
      wasPlaying = studio.clock.playing;
      studio.setPlaying(false);
      viewport.stop();
      if (location.hash !== '#bedroom') history.replaceState(null, '', '#bedroom');
      try {
        const mod = await loadBedroom!();
        syncStudioButtons(); // at start-up (#bedroom) the switcher joins the top bar only now
        const api = studio.api;
        // The bedroom reads its settings once when it mounts: at start-up (#bedroom) they may not have arrived yet.
        await studio.settings.ready();
        if (!bedroom || mounted) return;
        mounted = mod.mountBedroom(bedroomView, {
          getAvatar: () => ({ bytes: studio.avatar?.bytes ?? new Uint8Array(), name: studio.avatar?.name ?? 'mannequin' }),
          readUserFile: api ? (name) => api.readFile(name) : undefined,
          // The page's one library copy (kept by the change events' deltas), not a listing per change.
          listPoseFiles: api ? () => mod.listPoseFiles({ listLibrary: async () => [...(await libraryMirror(api).folders())], describeFile: (p) => api.describeFile(p) }) : undefined,
          onPoseFilesChanged: api ? (cb) => libraryMirror(api).onChange(() => cb()) : undefined,
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
      viewport.start();
      viewport.resize();
      if (wasPlaying) studio.setPlaying(true);
    }
  };
  studioTab.addEventListener('click', () => void show(false));
  bedroomTab.addEventListener('click', () => void show(true));
  window.addEventListener('hashchange', () => void show(location.hash === '#bedroom'));
  const ready = location.hash === '#bedroom' ? show(true) : Promise.resolve();
  return { element, ready, isBedroom: () => bedroom, show };
}
