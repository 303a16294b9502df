/**
 * The renderer's only door to files, menus and settings: the StudioApi contract.
 * In Electron the preload exposes it as window.studio; in a plain browser it is an HTTP client of the
 * loopback browser host (see httpStudioApi.ts for how the per-run token travels).
 */
import type { StudioApi } from '../../shared/contract/studioApi';
import { createHttpStudioApi } from './httpStudioApi';

declare global {
  interface Window {
    /** Set by the Electron preload (preload/index.ts). */
    studio?: StudioApi;
  }
}

let api: StudioApi | undefined;

export function getStudioApi(): StudioApi {
  if (!api) api = typeof window !== 'undefined' && window.studio ? window.studio : createHttpStudioApi();
  return api;
}

/** True when running inside the Electron app (native dialogs and menu exist). */
export function isElectron(): boolean {
  return typeof window !== 'undefined' && Boolean(window.studio);
}

export type * from '../../shared/contract/studioApi';
