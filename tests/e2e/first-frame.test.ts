/**
 * The first end-to-end check: the browser host serves the studio, Chromium opens it and the page
 * draws the generated mannequin (pixels read back from the WebGL canvas).
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../helpers/browser';
import { hook, openStudio, screenshot, state } from './studioHarness';

describe.skipIf(!HAS_CHROMIUM)(`first frame${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('draws the walking mannequin in the browser host', async () => {
    const s = await openStudio();
    try {
      const st = await state(s.page);
      expect(st.avatarName).toBe('Mannequin');
      expect(st.metaVersion).toBe('1');
      // The default motion is the generated walk cycle, at least 2 s, playing.
      expect(st.duration).toBeGreaterThanOrEqual(2);
      expect(st.playing).toBe(true);

      // Silhouette: pixels that change when the avatar is hidden (markers and gizmos hidden too).
      const share = await hook<number>(s.page, 'silhouetteShare');
      expect(share).toBeGreaterThan(0.02);
      expect(share).toBeLessThan(0.6);

      // The frame actually on screen is not blank: the light mannequin stands out of the dark background.
      const px = await hook<{ share: number; width: number; height: number }>(s.page, 'viewportPixelStats');
      expect(px.width).toBeGreaterThan(400);
      expect(px.share).toBeGreaterThan(0.01);
      await screenshot(s.page, 'first-frame');
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
