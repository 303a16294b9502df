/**
 * The answers POST /api/session sends with the token: the calls every page makes first, before it
 * can build the studio (getPlatform: which host, whether the test hook is on; getSettings: the
 * language the first frame is drawn in). Asked after the token, they were a second round trip in
 * series before the first frame (issue 30); the page takes each once (renderer/platform/httpStudioApi.ts)
 * and asks the host for anything later. A call that fails here is left out: the page then asks it.
 */
import type { StudioInvokeMethod } from '../../shared/contract/studioApi';
import type { StudioBackend } from '../services/backend';

export const SESSION_ANSWERED: readonly StudioInvokeMethod[] = ['getPlatform', 'getSettings'];

export async function sessionAnswers(backend: StudioBackend): Promise<Partial<Record<StudioInvokeMethod, unknown>>> {
  const answers: Partial<Record<StudioInvokeMethod, unknown>> = {};
  await Promise.all(
    SESSION_ANSWERED.map(async (method) => {
      try {
        answers[method] = (await backend.invoke(method, [])) ?? null;
      } catch {
        // Asked again by the page, which then reports the error as it would any call's.
      }
    }),
  );
  return answers;
}
