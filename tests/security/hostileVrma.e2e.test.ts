/**
 * Issue 16, finding 3, in the page: the same reader runs in the studio, so a small .vrma that points
 * 150 accessors at one int16 view must be refused there with a message naming the file, the motion on
 * screen kept and the tab still answering (before: the file opened, decoding 37.5 M floats).
 * Also a JSON chunk of 4 M empty nodes, refused before JSON.parse (before: parsed, +400 MB, then refused).
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { hook, openStudio, state } from '../../testkit/studioHarness';
import { emptyNodesVrma, sharedViewVrma } from './hostileFiles';

describe.skipIf(!HAS_CHROMIUM)(`security: the studio refuses a decode bomb${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  it('shows an error naming the file, keeps the motion and keeps answering', async () => {
    const s = await openStudio();
    try {
      const before = await state(s.page);
      const bytes = sharedViewVrma(150, 50_000);
      await hook(s.page, 'openBase64', 'many-accessors.vrma', Buffer.from(bytes).toString('base64'));
      const after = await state(s.page);
      const last = after.messages[after.messages.length - 1];
      expect(last?.kind).toBe('error');
      expect(last?.text).toMatch(/many-accessors\.vrma/);
      expect(last?.text).toMatch(/more than a file of this size can justify/);
      expect(after.motionName).toBe(before.motionName);
      expect(await s.page.evaluate(() => 6 * 7)).toBe(42);
    } finally {
      await s.close();
    }
  });

  it('refuses a JSON chunk of 4 M nodes before parsing it, naming the file', async () => {
    const s = await openStudio();
    try {
      const before = await state(s.page);
      const bytes = emptyNodesVrma(4_000_000);
      await hook(s.page, 'openBase64', 'four-million-nodes.vrma', Buffer.from(bytes).toString('base64'));
      const after = await state(s.page);
      const last = after.messages[after.messages.length - 1];
      expect(last?.kind).toBe('error');
      expect(last?.text).toMatch(/four-million-nodes\.vrma/);
      // "262,144" in English: the page formats numbers for the user's locale.
      expect(last?.text).toMatch(/more than 262[,. \u202f]?144 objects and arrays/);
      expect(after.motionName).toBe(before.motionName);
      expect(await s.page.evaluate(() => 6 * 7)).toBe(42);
    } finally {
      await s.close();
    }
  });
});
