/**
 * When the viewport first drew a frame with an avatar in it (performance.now(), counted from the
 * navigation start), kept by the page from its first frame on. The bench and the e2e tests read it
 * through the test hook, which may now be installed after that frame: the first frame does not wait
 * for the hook's chunk (issue 30).
 */
import type { Studio } from '../app/studio';

export function watchFirstAvatarFrame(studio: Studio): () => number | null {
  let at: number | null = null;
  const stop = studio.viewport.onFrame(() => {
    if (!studio.avatar) return;
    stop();
    // The frame being drawn now is the first one with the avatar in it: the time it has been drawn.
    queueMicrotask(() => {
      at = performance.now();
    });
  });
  return () => at;
}
