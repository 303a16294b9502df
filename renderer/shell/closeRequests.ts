/**
 * Main asks before the window closes with unsaved changes (closeRequest, main/services/closeGuard.ts):
 * the page says 'shown' at once (so main does not fall back to its own dialog), shows the studio's
 * Save / Don't save / Cancel dialog and answers 'close' (saved, or Don't save) or 'cancel' (the
 * document and its undo history stay as they were; a failed or cancelled save also keeps the window).
 */
import type { StudioApi } from '../../shared/contract/studioApi';

export function answerCloseRequests(api: StudioApi, confirmClose: () => Promise<boolean>): void {
  const answer = (id: number, a: 'shown' | 'close' | 'cancel') => api.answerClose(id, a).catch(() => undefined);
  try {
    api.onCloseRequest(async ({ id }) => {
      await answer(id, 'shown');
      let ok = false;
      try {
        ok = await confirmClose();
      } finally {
        await answer(id, ok ? 'close' : 'cancel');
      }
    });
  } catch {
    /* no event channel */
  }
}
