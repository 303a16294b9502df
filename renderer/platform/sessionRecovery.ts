/**
 * Crash recovery: a recovered autosave becomes the document again. Its avatar is read again (or the
 * built-in one loaded); the document as opened (its file read again) is the undo entry before the
 * recovered motion, so Undo goes back to what is on disk (document.ts, recover).
 */
import type { RecoveredSession, StudioApi } from '../../shared/contract/studioApi';
import type { Motion } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import type { Studio } from '../app/studio';
import { readMotionFile } from '../app/core';
import type { DocumentSnapshot } from '../app/document';
import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';
import { t, formatDate } from '../../shared/i18n';
import { errorText } from '../ui/messages';

/** The motion as opened from `path` (converted again if it is not a .vrma), or null when it cannot be read now. */
async function openedState(api: StudioApi, sourcePath?: string, filePath?: string): Promise<Motion | null> {
  const path = filePath ?? sourcePath;
  if (!path) return null;
  try {
    return (await readMotionFile(path.split(/[\\/]/).pop() ?? path, await api.readFile(path))).motion;
  } catch {
    return null; // moved or unreadable: the recovered motion stands alone, unsaved
  }
}

/** The recovered session becomes the document, with its avatar, range, selection, falloff and time. */
export async function restoreSession(studio: Studio & { avatarPath?: string }, api: StudioApi, session: RecoveredSession, loadBuiltinAvatar?: () => Promise<void>): Promise<void> {
  const motion = readVrma(session.motion);
  if (session.avatar.kind === 'file') {
    try {
      const bytes = await api.readFile(session.avatar.path);
      await studio.setAvatar(bytes, session.avatar.path.split(/[\\/]/).pop() ?? 'avatar');
      studio.avatarPath = session.avatar.path;
    } catch (e) {
      const path = session.avatar.path;
      studio.messages.error(() => t('studio.doc.avatarReloadFailed', { file: path, detail: errorText(e) }));
    }
  } else if (loadBuiltinAvatar && studio.avatar?.name !== BUILTIN_AVATAR_NAME) {
    await loadBuiltinAvatar();
  }
  const view = session.view as {
    time?: number;
    range?: { start: number; end: number } | null;
    selectedBone?: string | null;
    falloff?: number;
    history?: DocumentSnapshot['history'];
  };
  // The undo position: the document as it was opened (its file read again) is the entry before
  // the recovered motion, so Undo goes back to what is on disk (document.ts, recover).
  const base = await openedState(api, session.sourcePath, view.history?.filePath);
  studio.doc.recover(motion, { motionName: session.motionName, sourcePath: session.sourcePath, undoIndex: session.undoIndex, history: view.history }, base);
  studio.messages.documentChanged();
  studio.documentReplaced();
  if (typeof view.falloff === 'number') studio.setFalloff(view.falloff);
  if (view.range && Number.isFinite(view.range.start) && Number.isFinite(view.range.end)) studio.setRange(view.range);
  if (typeof view.selectedBone === 'string') studio.select(view.selectedBone as never);
  if (typeof view.time === 'number') studio.seek(view.time);
  studio.messages.show('success', () => t('studio.doc.recovered', { name: session.motionName, time: formatDate(session.savedAt) }));
}
