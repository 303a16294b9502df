/**
 * A scene says it has started: `data-studio-ready` / `data-bedroom-ready` on the page's root element,
 * set once the scene is built, has asked for its first frame and has installed its test hook or
 * decided not to (VRMA_STUDIO_TEST_HOOK). Tests that check something does NOT happen (no hook without
 * the variable) wait for this instead of sleeping; nothing in the product reads it.
 */
export type SceneName = 'studio' | 'bedroom';

const KEY: Record<SceneName, 'studioReady' | 'bedroomReady'> = { studio: 'studioReady', bedroom: 'bedroomReady' };

/** Marks `scene` started (true) or gone (false: the bedroom unmounted). */
export function markSceneReady(scene: SceneName, ready = true): void {
  if (ready) document.documentElement.dataset[KEY[scene]] = '1';
  else delete document.documentElement.dataset[KEY[scene]];
}
