/**
 * The session's calls of the StudioApi: the recent list, autosave and recovery, settings, menus,
 * closing and launch requests. Apart from the backend's library and document calls: none of them
 * opens, reads or writes a user's file; they keep the app's own state.
 */
import type { OpenRequest, StudioApi } from '../../shared/contract/studioApi';
import type { AccessPolicy } from './accessPolicy';
import type { AutosaveStore } from './autosave';
import type { BackendOptions } from './backendOptions';
import type { CloseGuard } from './closeGuard';
import type { RecentList } from './recentList';
import type { SettingsStore } from './settingsStore';

export type SessionMethod =
  | 'listRecent'
  | 'clearRecent'
  | 'autosave'
  | 'clearAutosave'
  | 'checkRecovery'
  | 'getSettings'
  | 'setSettings'
  | 'setCommands'
  | 'setDocumentState'
  | 'answerClose'
  | 'takeLaunchRequests';

/** The backend's parts these calls use, read when a call runs (the close guard is made after the handlers). */
export interface SessionParts {
  readonly recent: RecentList;
  readonly settings: SettingsStore;
  readonly autosaveStore: AutosaveStore;
  readonly policy: AccessPolicy;
  readonly closeGuard: CloseGuard;
}

export function sessionHandlers(b: SessionParts, opts: BackendOptions, takeLaunchRequests: () => OpenRequest[]): Pick<StudioApi, SessionMethod> {
  return {
    listRecent: () => b.recent.list(),
    clearRecent: async () => {
      await b.recent.clear();
      opts.onRecentChanged?.([]);
    },

    autosave: async (session) => {
      // Only paths the user opened are recorded, so granting them again on recovery grants nothing new.
      const readable = (p: string) => b.policy.resolveReadable(p).then(() => true, () => false);
      const { sourcePath, ...rest } = session;
      const avatar = session.avatar.kind === 'file' && !(await readable(session.avatar.path)) ? null : session.avatar;
      b.autosaveStore.schedule({
        ...rest,
        avatar: avatar ?? { kind: 'builtin', id: 'unknown' },
        ...(sourcePath !== undefined && (await readable(sourcePath)) ? { sourcePath } : {}),
      });
    },
    clearAutosave: () => b.autosaveStore.clear(),
    checkRecovery: async () => {
      const session = await b.autosaveStore.load();
      if (!session) return null;
      // The recovered document may read its avatar and export beside its source, as before the crash.
      if (session.avatar.kind === 'file') await b.policy.grantFile(session.avatar.path).catch(() => undefined);
      if (session.sourcePath) await b.policy.grantFile(session.sourcePath).catch(() => undefined);
      return session;
    },

    getSettings: () => b.settings.get(),
    setSettings: (patch) => b.settings.set(patch),

    setCommands: async (commands) => {
      opts.onCommands?.(commands);
    },
    setDocumentState: async (state) => {
      opts.onDocumentState?.(state);
    },
    answerClose: async (id, answer) => {
      // A late answer (main's own dialog already decided) is ignored.
      b.closeGuard.answer(id, answer);
    },
    takeLaunchRequests: async () => takeLaunchRequests(),
  };
}
