/**
 * The desktop side of a studio session, on top of the StudioApi: autosave after every change,
 * crash recovery at start, files and folders the OS or the command line asked to open, and Convert
 * Folder (convertFolderRun.ts; recovery itself is sessionRecovery.ts). One call wires it into the studio:
 *
 *   attachDesktopSession(studio, { onFolderOpened: () => library.refresh() });
 *
 * Saving is the document model's (renderer/app/document.ts, renderer/shell/documentActions.ts); this module only
 * reads the document's snapshot for the autosave and hands a recovered session back to it.
 */
import { CONVERTIBLE_EXTENSIONS, formatList, isAvatarFile } from '../../shared/formats/formats';
import { latestRunner } from './latestRun';
import type { Studio } from '../app/studio';
import type {
  AvatarRef,
  ConvertSummary,
  OpenRequest,
  RecoveredSession,
  StudioApi,
} from '../../shared/contract/studioApi';
import type { SessionWithoutMotion } from './autosaveProtocol';
import { createAutosaveWriter } from './autosaveWriter';
import { t, formatDate } from '../../shared/i18n';
import { convertFolder } from './convertFolderRun';
import { restoreSession } from './sessionRecovery';
import { errorText } from '../ui/messages';

import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';

export interface DesktopSessionOptions {
  /** Asked when a crashed session is found; default: window.confirm. */
  confirmRecovery?: (session: RecoveredSession) => Promise<boolean> | boolean;
  /** A folder was opened on the OS's or command line's behalf: refresh the library view. */
  onFolderOpened?: () => void;
  /** Loads the built-in avatar (recovery of a session that used it). */
  loadBuiltinAvatar?: () => Promise<void>;
  /** Write autosaves in a worker (default true); false writes them in the page. */
  autosaveInWorker?: boolean;
}

export interface DesktopSession {
  /** Resolves when the start-up work (recovery offer, launch paths) is done. */
  readonly ready: Promise<void>;
  /** Writes the autosave now (tests, before a risky operation). */
  autosaveNow(): Promise<void>;
  /** Converts the library folder (or a chosen one) with a progress bar and a summary message. */
  convertFolder(): Promise<ConvertSummary | null>;
  dispose(): void;
}

type StudioWithPaths = Studio & { avatarPath?: string };

function avatarRef(studio: StudioWithPaths): AvatarRef {
  const name = studio.avatar?.name;
  // The path counts only while that file is still the avatar on screen (the mannequin may have replaced it).
  if (studio.avatarPath && name && studio.avatarPath.split(/[\\/]/).pop() === name) return { kind: 'file', path: studio.avatarPath };
  return { kind: 'builtin', id: BUILTIN_AVATAR_NAME.toLowerCase() };
}

/** Everything autosave records but the motion's bytes, which the autosave writer makes. */
function sessionOf(studio: StudioWithPaths): SessionWithoutMotion {
  const { history, ...doc } = studio.doc.snapshot();
  return {
    avatar: avatarRef(studio),
    ...doc,
    view: {
      history,
      time: studio.clock.time,
      range: studio.range ? { start: studio.range.start, end: studio.range.end } : null,
      selectedBone: studio.selectedBone,
      falloff: studio.falloff,
    },
  };
}

export function attachDesktopSession(studio: StudioWithPaths, opts: DesktopSessionOptions = {}): DesktopSession {
  const api: StudioApi | null = studio.api;
  let disposed = false;
  const unsubscribe: (() => void)[] = [];
  const quiet = (p: Promise<unknown>) => void p.catch((e) => console.warn('desktop session:', e));
  const writer = api ? createAutosaveWriter(api, { useWorker: opts.autosaveInWorker }) : null;
  // Save in place goes through the same worker: it holds the motion already, so only what changed since
  // the last autosave crosses over, and the file's bytes never pass through the page (browser host).
  if (writer) studio.doc.setFileSaver((motion, path, control) => writer.saveFile(path, motion, control));

  // Autosaves and clears run one after another, so an older autosave can never land after a newer
  // clear (a save) or autosave. A run reads the studio when it starts, so one queued run is enough.
  // Every change goes out at once: main's AutosaveStore is the one debouncer (quiet time, 1 s at most).
  const autosaveNow = latestRunner(async () => {
    if (!api || !writer || disposed) return;
    if (studio.dirty) await writer.save(sessionOf(studio), studio.motion);
    else {
      await api.clearAutosave(); // back at the saved state: nothing to recover
      // Opened (or back at the saved state): the worker gets the file's buffers now, not at the first edit.
      await writer.prime(studio.motion);
    }
  });
  const scheduleAutosave = () => quiet(autosaveNow());

  const openRequested = async (req: OpenRequest) => {
    if (!api) return;
    try {
      if (req.kind === 'folder') {
        await api.openFolder(req.path);
        opts.onFolderOpened?.();
      } else {
        const file = await api.openFile(req.path);
        if (file) {
          await studio.openFile(file.name, file.bytes, file.path);
          if (isAvatarFile(file.name)) studio.avatarPath = file.path;
        }
      }
    } catch (e) {
      studio.messages.error(() => t('studio.open.fileFailed', { file: req.path, detail: errorText(e) }));
    }
  };

  const start = async () => {
    if (!api) return;
    const session = await api.checkRecovery().catch(() => null);
    let recovered = false;
    if (session) {
      const ask = opts.confirmRecovery ??
        ((s: RecoveredSession) => window.confirm(t('studio.doc.confirmRecovery', { name: s.motionName, time: formatDate(s.savedAt) })));
      if (await ask(session)) {
        await restoreSession(studio, api, session, opts.loadBuiltinAvatar);
        recovered = true;
      } else await api.clearAutosave();
    }
    for (const req of await api.takeLaunchRequests().catch(() => [] as OpenRequest[])) {
      // Opening a launch file would replace the recovered, unsaved motion: keep the recovered work on screen.
      if (recovered && req.kind === 'file' && !isAvatarFile(req.path)) {
        const path = req.path;
        studio.messages.notice(() => t('studio.doc.launchSkipped', { file: path }));
        continue;
      }
      await openRequested(req);
    }
  };

  if (api) {
    unsubscribe.push(studio.events.on('document', scheduleAutosave));
    try {
      unsubscribe.push(api.onOpenRequest((req) => void openRequested(req)));
    } catch {
      /* no event channel */
    }
  }

  if (api) {
    const register = (id: string, label: string, description: string, run: () => Promise<unknown>) => {
      // The studio may define these itself; then its own version wins.
      if (!studio.commands.get(id)) studio.commands.register({ id, label, description, menu: 'file', run: () => void run() });
    };
    register('file.convertFolder', 'Convert Folder…', `Convert every ${formatList(CONVERTIBLE_EXTENSIONS)} file of the opened folder to .vrma beside it`, () => convertFolder(studio, api));
    studio.commands.changed();
  }

  return {
    ready: start().catch((e) => studio.messages.error(() => t('studio.doc.startFailed', { detail: errorText(e) }))),
    autosaveNow,
    convertFolder: () => (api ? convertFolder(studio, api) : Promise.resolve(null)),
    dispose() {
      disposed = true;
      if (writer) studio.doc.setFileSaver(null);
      writer?.dispose();
      unsubscribe.forEach((u) => u());
    },
  };
}
