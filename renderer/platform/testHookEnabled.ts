/**
 * Whether the page may install its test instrumentation (window.__studio, window.__bedroom).
 *
 * Only when the app or the browser host was started with VRMA_STUDIO_TEST_HOOK=1: the backend says
 * so in getPlatform() (PlatformInfo.testHook), the one place both the Electron main process and the
 * browser host answer from. The hooks' code lives in chunks that are imported only after this
 * resolves true, so the product never loads it. Asked once per page.
 */
import { getStudioApi } from './studioApi';

let answer: Promise<boolean> | null = null;

export function testHookEnabled(): Promise<boolean> {
  if (!answer) {
    answer = (async () => {
      try {
        return (await getStudioApi().getPlatform()).testHook === true;
      } catch {
        // No API (a page opened without the host's key, or no bridge): no hook either.
        return false;
      }
    })();
  }
  return answer;
}
