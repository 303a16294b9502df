/**
 * Studio | Bedroom switcher. The Bedroom scene comes from renderer/bedroom/index.ts
 * (mountBedroom(root, ctx) -> { dispose }), loaded lazily on first use; the URL hash #bedroom
 * opens it directly. While the Bedroom shows, the studio stops drawing and playing.
 */
import type { Studio } from './studio';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';

export interface BedroomSettingsStore {
  get(): unknown;
  set(value: unknown): void;
}

export interface BedroomContext {
  getAvatarBytes(): Uint8Array;
  readUserFile?(name: string): Promise<Uint8Array>;
  settings: BedroomSettingsStore;
}

type BedroomModule = { mountBedroom(root: HTMLElement, ctx: BedroomContext): { dispose(): void } };
const bedroomModules = import.meta.glob<BedroomModule>('../bedroom/index.ts');

const SETTINGS_KEY = 'vrma-studio.bedroom';

function localSettings(): BedroomSettingsStore {
  return {
    get: () => {
      try {
        const raw = localStorage.getItem(SETTINGS_KEY);
        return raw ? JSON.parse(raw) : undefined;
      } catch {
        return undefined;
      }
    },
    set: (value) => {
      try {
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(value));
      } catch {
        /* storage unavailable: settings last for this session only */
      }
    },
  };
}

export function createSceneSwitcher(studio: Studio, studioView: HTMLElement, bedroomView: HTMLElement) {
  const loadBedroom = Object.values(bedroomModules)[0] as (() => Promise<BedroomModule>) | undefined;
  const studioTab = h('button', { type: 'button', role: 'tab', id: 'tab-studio', 'aria-selected': 'true', text: 'Studio', title: 'The motion studio' }) as HTMLButtonElement;
  const bedroomTab = h('button', {
    type: 'button',
    role: 'tab',
    id: 'tab-bedroom',
    'aria-selected': 'false',
    text: 'Bedroom',
    title: loadBedroom ? 'Your avatar asleep in a bedroom' : 'The Bedroom scene is not available in this build',
    disabled: !loadBedroom,
  }) as HTMLButtonElement;
  const element = h('div', { class: 'scene-switcher', role: 'tablist', 'aria-label': 'Scene' }, studioTab, bedroomTab);
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
        mounted = mod.mountBedroom(bedroomView, {
          getAvatarBytes: () => studio.avatar?.bytes ?? new Uint8Array(),
          readUserFile: studio.api ? (name) => studio.api!.readFile(name) : undefined,
          settings: localSettings(),
        });
      } catch (e) {
        studio.messages.error(`The Bedroom could not start: ${errorText(e)}`);
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
