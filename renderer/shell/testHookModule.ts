/**
 * The test hook's chunk (testHook.ts), asked for once per page as soon as the host has said the hook
 * is on (getPlatform, VRMA_STUDIO_TEST_HOOK=1), and null when it is off. renderer/main.ts starts it
 * with the session's first calls: asked from startStudio instead, its fetch and evaluation came after
 * the studio was built and held back the first frame by up to 190 ms (issue 30; the product, which
 * never loads it, did not have that wait).
 */
import { testHookEnabled } from '../platform/testHookEnabled';

let loading: Promise<typeof import('./testHook') | null> | null = null;

export function testHookModule(): Promise<typeof import('./testHook') | null> {
  loading ??= testHookEnabled()
    .then((on) => (on ? import('./testHook') : null))
    .catch((e: unknown) => {
      console.warn('test hook:', e);
      return null;
    });
  return loading;
}
