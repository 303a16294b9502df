/**
 * The desktop side of a studio session, on top of the StudioApi: autosave after every change,
 * crash recovery at start, files and folders the OS or the command line asked to open, and Convert
 * Folder. One call wires it into the studio:
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
import { StudioApiError } from '../../shared/contract/studioApi';
import { MAX_TAKES_WITHOUT_ASKING } from '../../shared/contract/schema';
import type { Motion } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import { readMotionFile } from '../app/core';
import type { DocumentSnapshot } from '../app/document';
import type { SessionWithoutMotion } from './autosaveProtocol';
import { createAutosaveWriter } from './autosaveWriter';
import { askConvertTarget, askManyTakes, showConvertSummary } from '../panels/convertFolderDialog';
import { t, formatDate, formatNumber } from '../../shared/i18n';
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

  // Autosaves and clears run one after another, so an older autosave can never land after a newer
  // clear (a save) or autosave. A run reads the studio when it starts, so one queued run is enough.
  // Every change goes out at once: main's AutosaveStore is the one debouncer (quiet time, 1 s at most).
  const autosaveNow = latestRunner(async () => {
    if (!api || !writer || disposed) return;
    if (studio.dirty) await writer.save(sessionOf(studio), studio.motion);
    else await api.clearAutosave(); // back at the saved state: nothing to recover
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

  /** The motion as opened from `path` (converted again if it is not a .vrma), or null when it cannot be read now. */
  const openedState = async (sourcePath?: string, filePath?: string): Promise<Motion | null> => {
    const path = filePath ?? sourcePath;
    if (!api || !path) return null;
    try {
      return (await readMotionFile(path.split(/[\\/]/).pop() ?? path, await api.readFile(path))).motion;
    } catch {
      return null; // moved or unreadable: the recovered motion stands alone, unsaved
    }
  };

  const restore = async (session: RecoveredSession) => {
    const motion = readVrma(session.motion);
    if (session.avatar.kind === 'file' && api) {
      try {
        const bytes = await api.readFile(session.avatar.path);
        await studio.setAvatar(bytes, session.avatar.path.split(/[\\/]/).pop() ?? 'avatar');
        studio.avatarPath = session.avatar.path;
      } catch (e) {
        const path = session.avatar.path;
        studio.messages.error(() => t('studio.doc.avatarReloadFailed', { file: path, detail: errorText(e) }));
      }
    } else if (opts.loadBuiltinAvatar && studio.avatar?.name !== BUILTIN_AVATAR_NAME) {
      await opts.loadBuiltinAvatar();
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
    const base = await openedState(session.sourcePath, view.history?.filePath);
    studio.doc.recover(motion, { motionName: session.motionName, sourcePath: session.sourcePath, undoIndex: session.undoIndex, history: view.history }, base);
    studio.messages.documentChanged();
    studio.documentReplaced();
    if (typeof view.falloff === 'number') studio.setFalloff(view.falloff);
    if (view.range && Number.isFinite(view.range.start) && Number.isFinite(view.range.end)) studio.setRange(view.range);
    if (typeof view.selectedBone === 'string') studio.select(view.selectedBone as never);
    if (typeof view.time === 'number') studio.seek(view.time);
    studio.messages.show('success', () => t('studio.doc.recovered', { name: session.motionName, time: formatDate(session.savedAt) }));
  };

  const start = async () => {
    if (!api) return;
    const session = await api.checkRecovery().catch(() => null);
    let recovered = false;
    if (session) {
      const ask =
        opts.confirmRecovery ??
        ((s: RecoveredSession) =>
          window.confirm(t('studio.doc.confirmRecovery', { name: s.motionName, time: formatDate(s.savedAt) })));
      if (await ask(session)) {
        await restore(session);
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

  const convertFolder = async (): Promise<ConvertSummary | null> => {
    if (!api) return null;
    let folders = await api.listLibrary();
    if (!folders.length && (await api.getPlatform()).nativeDialogs) {
      const opened = await api.openFolder();
      if (opened) folders = [opened];
    }
    if (!folders.length) {
      studio.messages.error(() => t('convert.folder.needsFolder'));
      return null;
    }
    // Which folder: asked, with the last-opened one preselected, never guessed.
    const last = (await studio.settings.refresh()).lastFolder ?? undefined; // main keeps it: read again
    const target = await askConvertTarget(folders, folders.find((f) => f.root === last)?.root ?? folders[0].root);
    if (!target) return null;
    const bar = document.createElement('progress');
    bar.max = 1;
    bar.value = 0;
    bar.setAttribute('aria-label', t('studio.convertFolder.progress'));
    bar.className = 'convert-progress';
    const box = document.createElement('div');
    box.className = 'message notice progress';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', t('studio.convertFolder.converting'));
    const label = document.createElement('span');
    box.append(label, bar);
    studio.messages.element.append(box);
    const off = api.onConvertProgress((p) => {
      bar.max = Math.max(1, p.total);
      bar.value = p.done;
      label.textContent = t('studio.convertFolder.step', { done: p.done, total: p.total, file: p.path.split(/[\\/]/).pop() ?? p.path });
    });
    const summaries: ConvertSummary[] = [];
    // Files of more than 50 takes: the backend answers CONFIRM first; the user decides (finding 12).
    const convertAsking = async (folder: string, overwrite: boolean) => {
      try {
        return await api.convertFolder({ folder, overwrite });
      } catch (e) {
        if (!(e instanceof StudioApiError && e.code === 'CONFIRM')) throw e;
        return api.convertFolder({ folder, overwrite, allTakes: await askManyTakes(MAX_TAKES_WITHOUT_ASKING) });
      }
    };
    try {
      for (const folder of target.roots) {
        label.textContent = t('studio.convertFolder.start', { folder });
        const summary = await convertAsking(folder, target.overwrite);
        summaries.push(summary);
        const failures = summary.failed.map((f) => `${f.source.split(/[\\/]/).pop()} (${f.message})`).join('; ');
        const text = () =>
          t('studio.convertFolder.doneIn', {
            folder,
            converted: summary.converted.length,
            skipped: summary.skipped.length + (summary.empty?.length ?? 0),
            failed: summary.failed.length,
            failures,
            seconds: formatNumber(summary.elapsedMs / 1000, 1, 1),
          });
        studio.messages.show(summary.failed.length ? 'error' : 'success', text, { group: summary.failed.length ? undefined : 'convert' });
      }
    } catch (e) {
      studio.messages.error(() => t('studio.convertFolder.failed', { detail: errorText(e) }));
    } finally {
      off();
      box.remove();
    }
    if (summaries.length) await showConvertSummary(summaries);
    return summaries[summaries.length - 1] ?? null;
  };


  if (api) {
    const register = (id: string, label: string, description: string, run: () => Promise<unknown>) => {
      // The studio may define these itself; then its own version wins.
      if (!studio.commands.get(id)) studio.commands.register({ id, label, description, menu: 'file', run: () => void run() });
    };
    register('file.convertFolder', 'Convert Folder…', `Convert every ${formatList(CONVERTIBLE_EXTENSIONS)} file of the opened folder to .vrma beside it`, () => convertFolder());
    studio.commands.changed();
  }

  return {
    ready: start().catch((e) => studio.messages.error(() => t('studio.doc.startFailed', { detail: errorText(e) }))),
    autosaveNow,
    convertFolder,
    dispose() {
      disposed = true;
      writer?.dispose();
      unsubscribe.forEach((u) => u());
    },
  };
}
