/**
 * The StudioApi as the main side implements it, free of Electron and HTTP: the Electron app
 * (main/electron) and the browser host (main/host) both forward validated calls here and relay its
 * events. Everything the renderer can reach on disk goes through the AccessPolicy.
 */
import { formatList, STUDIO_FILE_EXTENSIONS } from '../../shared/formats/formats';
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { expandHome } from './homePath';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  StudioApiError,
  extensionOf,
  type ConvertFolderRequest,
  type LibrarySnapshot,
  type OpenRequest,
  type OpenedFile,
  type RecentEntry,
  type StudioApi,
  type StudioEventName,
  type StudioEvents,
  type StudioInvokeMethod,
} from '../../shared/contract/studioApi';
import { validateArgs, type ValidArgs } from '../../shared/contract/validate';
import { AccessPolicy, checkPathSyntax } from './accessPolicy';
import type { BackendOptions } from './backendOptions';
import { typedPathConcern } from './typedPaths';
import { toErrorInfo } from './errorInfo';
import { DropGrants } from './dropGrants';
import { OpenFolders } from './openFolders';
import { hiddenFolderConcern } from './folderReads';
import { removeStaleTemps } from './atomicWrite';
import { AutosaveStore } from './autosave';
import { exportBesideSource, saveDocument, saveDocumentAs } from './documents';
import { FileDetailsCache, type FileDescriber } from './fileDetails';
import { DescribeWorker } from './describeWorker';
import { defaultWorkerFile } from './convertEngine';
import { mmdModelBeside } from './mmdModelBeside';
import { RecentList } from './recentList';
import { SettingsStore } from './settingsStore';
import { CloseGuard } from './closeGuard';
import { sessionHandlers } from './sessionHandlers';
import { fileFailure, fileProblem, studioErrorCodeOf } from '../../shared/fileProblem';

type Handler = (...args: never[]) => Promise<unknown>;
type EventListener<K extends StudioEventName> = (payload: StudioEvents[K]) => void;
type Api = { [K in StudioInvokeMethod]: StudioApi[K] };

export class StudioBackend {
  readonly policy = new AccessPolicy();
  readonly recent: RecentList;
  readonly settings: SettingsStore;
  readonly autosaveStore: AutosaveStore;
  private readonly details: FileDetailsCache;
  /** The describing workers when the converter brings none (tests, tools). */
  private ownDescriber: DescribeWorker | undefined;
  private readonly folders: OpenFolders;
  private readonly listeners = new Map<StudioEventName, Set<(payload: unknown) => void>>();
  private readonly launchRequests: OpenRequest[] = [];
  /** Real paths the preload saw dropped (trusted drop events), briefly grantable. */
  private readonly drops = new DropGrants();
  private convertBusy = false;
  private readonly handlers: Record<StudioInvokeMethod, Handler>;
  /** Close with unsaved changes: asks the page (closeRequest / answerClose), else main's dialog. */
  readonly closeGuard: CloseGuard;
  /** Removal of temp files a crash left in the user-data and autosave folders (started with the backend). */
  readonly startupTidy: Promise<number>;

  constructor(private readonly opts: BackendOptions) {
    this.recent = new RecentList(opts.userDataDir);
    this.folders = new OpenFolders((change) => this.emit('libraryChanged', change), opts.watchCoalesceMs);
    this.settings = new SettingsStore(opts.userDataDir);
    this.autosaveStore = new AutosaveStore(opts.userDataDir, opts.autosaveDelayMs);
    // Files are described on workers, never on this thread: the converter's, else our own (issue 24, finding 1).
    const describe: FileDescriber = opts.converter?.describe ?? ((path, signal) => (this.ownDescriber ??= new DescribeWorker(defaultWorkerFile() ?? 'convertWorker.js')).describe(path, signal));
    this.details = new FileDetailsCache(describe, { all: (p) => this.policy.readReadable(p), head: (p, n) => this.policy.readReadableHead(p, n) });
    this.handlers = this.createHandlers();
    this.closeGuard = new CloseGuard({
      ask: (req) => this.emit('closeRequest', req),
      // Without a dialog of its own (browser host) an unanswered close keeps the document.
      fallback: () => this.opts.closeFallback?.() ?? Promise.resolve('cancel'),
      ...(opts.closeAckTimeoutMs !== undefined ? { ackTimeoutMs: opts.closeAckTimeoutMs } : {}),
    });
    this.startupTidy = Promise.all([removeStaleTemps(opts.userDataDir), removeStaleTemps(join(opts.userDataDir, 'autosave'))]).then(
      ([a, b]) => a + b,
    );
  }

  /** Validates the arguments and runs one call (for in-process callers: tests, tools). Throws StudioApiError. */
  async invoke(method: StudioInvokeMethod, args: readonly unknown[]): Promise<unknown> {
    return this.run(method, validateArgs(method, args));
  }

  /**
   * Runs one call whose arguments a boundary already validated (main/electron/ipcCall.ts,
   * main/host/server.ts): each call is checked exactly once. Throws StudioApiError.
   */
  async run<M extends StudioInvokeMethod>(method: M, args: ValidArgs<M>): Promise<unknown> {
    const handler = this.handlers[method];
    if (!handler) throw new StudioApiError('BAD_ARGUMENT', `unknown method ${String(method)}`);
    try {
      return await (handler as (...a: unknown[]) => Promise<unknown>)(...(args as readonly unknown[]));
    } catch (e) {
      const info = toErrorInfo(e);
      throw new StudioApiError(info.code, info.message, info.fileProblem);
    }
  }

  on<K extends StudioEventName>(name: K, cb: EventListener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, set = new Set());
    set.add(cb as (p: unknown) => void);
    return () => set!.delete(cb as (p: unknown) => void);
  }

  emit<K extends StudioEventName>(name: K, payload: StudioEvents[K]): void {
    for (const cb of [...(this.listeners.get(name) ?? [])]) {
      try {
        cb(payload);
      } catch (e) {
        console.error(`studio event ${name}:`, e);
      }
    }
  }

  /**
   * The OS or the command line named a path (argv, second instance, open-file): grant it and
   * either queue it for takeLaunchRequests (at start) or push it to the renderer (while running).
   */
  async grantOsPath(path: string, { push }: { push: boolean }): Promise<OpenRequest | null> {
    let req: OpenRequest;
    try {
      const st = await fs.stat(checkPathSyntax(path));
      if (st.isDirectory()) req = { kind: 'folder', path: await this.policy.grantFolder(path) };
      else if (st.isFile() && extensionOf(path)) req = { kind: 'file', path: await this.policy.grantFile(path) };
      else return null;
    } catch {
      return null;
    }
    if (push) this.emit('openRequest', req);
    else this.launchRequests.push(req);
    return req;
  }

  /**
   * The preload saw these paths in a trusted OS drop (Electron: main/electron/index.ts relays them from
   * its own channel, which the page cannot reach). Only they may be opened with openDropped, briefly.
   */
  noteDropped(paths: readonly string[]): Promise<void> {
    return this.drops.note(paths);
  }

  /** Writes a pending autosave now (before quitting). */
  flushAutosave(): Promise<void> {
    return this.autosaveStore.flush();
  }

  async dispose(): Promise<void> {
    this.folders.closeAll();
    await this.autosaveStore.flush();
    await this.opts.converter?.close?.();
    await this.ownDescriber?.close();
  }

  private get allowTypedPaths(): boolean {
    return !this.opts.dialogs;
  }

  private async openFolderAt(path: string): Promise<LibrarySnapshot> {
    const root = await this.policy.grantFolder(path);
    const snapshot = await this.folders.open(root);
    await this.noteRecent(root, 'folder');
    await this.settings.set({ lastFolder: root });
    return snapshot;
  }

  private async openFileAt(path: string): Promise<OpenedFile> {
    const ext = extensionOf(path);
    if (!ext) throw new StudioApiError('BAD_FILE', `not a studio file (${basename(path)}): open ${formatList(STUDIO_FILE_EXTENSIONS)}`);
    const real = await this.policy.grantFile(path);
    const bytes = await this.policy.readReadable(real);
    await this.noteRecent(real, 'file');
    return { path: real, name: basename(real), ext, bytes };
  }

  /**
   * A path named by the renderer for opening: recent, already granted, or typed (browser host only;
   * outside the home folder or in a system folder only once the user confirmed it in the page).
   */
  private async mayOpen(path: string, kind: 'folder' | 'file', confirmed: boolean): Promise<boolean> {
    if (await this.recent.has(path)) return true;
    if (this.allowTypedPaths) {
      const real = await fs.realpath(checkPathSyntax(path)).catch(() => null);
      if (real === null) return true; // openFolderAt/openFileAt answer NOT_FOUND
      if (kind === 'folder' ? this.policy.folders().includes(real) : await this.isReadable(real)) return true;
      const home = this.opts.homeDir ?? homedir();
      const concern = typedPathConcern(real, home) ?? (kind === 'folder' ? await hiddenFolderConcern(real, home) : null);
      if (concern && !confirmed) throw new StudioApiError('CONFIRM', `${concern}. Open it anyway?`);
      return true;
    }
    if (kind === 'folder') {
      const real = await fs.realpath(checkPathSyntax(path)).catch(() => null);
      return real !== null && this.policy.folders().includes(real);
    }
    return this.isReadable(path);
  }

  private isReadable(path: string): Promise<boolean> {
    return this.policy.resolveReadable(path).then(
      () => true,
      () => false,
    );
  }

  private async noteRecent(path: string, kind: RecentEntry['kind']): Promise<void> {
    const entries = await this.recent.add(path, kind);
    this.opts.onRecentChanged?.(entries);
  }

  private createHandlers(): Record<StudioInvokeMethod, Handler> {
    const api: Api = { ...this.libraryHandlers(), ...this.documentHandlers(), ...sessionHandlers(this, this.opts, () => this.launchRequests.splice(0)) };
    return api as unknown as Record<StudioInvokeMethod, Handler>;
  }

  /** Folders and files: the library, opening (dialog, typed, dropped), reading. */
  private libraryHandlers(): Pick<Api, 'getPlatform' | 'openFolder' | 'closeFolder' | 'listLibrary' | 'describeFile' | 'openFile' | 'readFile' | 'findMmdModel' | 'openDropped'> {
    return {
      getPlatform: async () => ({
        host: this.opts.host,
        os: process.platform,
        appVersion: this.opts.appVersion,
        nativeDialogs: Boolean(this.opts.dialogs),
        userDataDir: this.opts.userDataDir,
        // Test instrumentation only on request (e2e tests and the bench set it); see renderer/app/testHookEnabled.ts.
        ...(process.env.VRMA_STUDIO_TEST_HOOK === '1' ? { testHook: true } : {}),
      }),

      openFolder: async (path, options) => {
        if (path === undefined) {
          if (!this.opts.dialogs) throw new StudioApiError('BAD_ARGUMENT', 'no folder dialog here: pass the folder path');
          const chosen = await this.opts.dialogs.openFolder();
          return chosen ? this.openFolderAt(chosen) : null;
        }
        // Typed in the browser host's folder box: "~/motions" means the home folder's motions.
        if (this.allowTypedPaths) path = expandHome(path, this.opts.homeDir ?? homedir());
        if (!(await this.mayOpen(path, 'folder', options?.confirmed === true))) throw new StudioApiError('DENIED', `choose the folder in the dialog: ${path}`);
        return this.openFolderAt(path);
      },

      closeFolder: async (root) => {
        const real = await fs.realpath(checkPathSyntax(root)).catch(() => root);
        this.folders.close(real);
        this.details.cancelUnder(real);
        this.policy.revokeFolder(real);
      },

      listLibrary: () => this.folders.snapshots(),

      describeFile: async (path) => this.details.describe(await this.policy.resolveReadable(path)),

      openFile: async (path, options) => {
        if (path === undefined) {
          if (!this.opts.dialogs) throw new StudioApiError('BAD_ARGUMENT', 'no file dialog here: pass the file path');
          const chosen = await this.opts.dialogs.openFile();
          return chosen ? this.openFileAt(chosen) : null;
        }
        if (this.allowTypedPaths) path = expandHome(path, this.opts.homeDir ?? homedir());
        if (!(await this.mayOpen(path, 'file', options?.confirmed === true))) throw new StudioApiError('DENIED', `choose the file in the dialog: ${path}`);
        return this.openFileAt(path);
      },

      readFile: (path) => this.policy.readReadable(path),

      findMmdModel: async (motionPath) => {
        const real = await this.policy.resolveReadable(motionPath);
        const model = mmdModelBeside(real, await this.folders.snapshots());
        return model ? { path: model.path, name: model.name } : null;
      },

      openDropped: async (path) => {
        // A path string from the page grants nothing: only what the preload saw in a real drop.
        if (this.opts.host !== 'electron') throw new StudioApiError('DENIED', 'drops are read in the page here; type the path or use the folder field');
        const real = await this.drops.take(path);
        if (!real) throw new StudioApiError('DENIED', `not something that was just dropped on the window: ${path}`);
        const st = await fs.stat(real).catch((e: unknown) => Promise.reject(new StudioApiError(studioErrorCodeOf(fileProblem(e, path).errno), fileFailure(e, path), fileProblem(e, path))));
        if (st.isDirectory()) return { kind: 'folder' as const, library: await this.openFolderAt(real) };
        if (!st.isFile()) throw new StudioApiError('BAD_FILE', `not a file: ${path}`);
        return { kind: 'file' as const, file: await this.openFileAt(real) };
      },
    };
  }

  /** Writing: save, save as, export beside the source, Convert Folder. */
  private documentHandlers(): Pick<Api, 'saveFile' | 'saveFileAs' | 'exportMotion' | 'convertFolder'> {
    return {
      saveFile: async (req) => {
        const result = await saveDocument(this.policy, req);
        await this.autosaveStore.clear();
        return result;
      },

      saveFileAs: async (req) => {
        let { path, overwrite } = req;
        if (this.opts.dialogs) {
          const chosen = await this.opts.dialogs.saveFileAs(req.suggestedName);
          if (!chosen) return null;
          // The user picked this place in the native dialog (which also confirmed any overwrite).
          await this.policy.grantWriteFolder(dirname(chosen));
          [path, overwrite] = [chosen, true];
        }
        if (!path) throw new StudioApiError('BAD_ARGUMENT', 'saveFileAs needs a target path in the browser host');
        const result = await saveDocumentAs(this.policy, { ...req, path, overwrite });
        await this.autosaveStore.clear();
        await this.noteRecent(result.path, 'file');
        return result;
      },

      exportMotion: async (req) => {
        const result = await exportBesideSource(this.policy, req);
        this.folders.touchAll();
        return result;
      },

      convertFolder: async (req: ConvertFolderRequest) => {
        if (!(await this.policy.isInOpenedFolder(req.folder))) {
          throw new StudioApiError('DENIED', `open the folder first: ${req.folder}`);
        }
        if (!this.opts.converter) throw new StudioApiError('INTERNAL', 'batch conversion is not available in this build');
        if (this.convertBusy) throw new StudioApiError('BUSY', 'a conversion is already running');
        this.convertBusy = true;
        try {
          const folder = await fs.realpath(req.folder);
          return await this.opts.converter({
            jobId: randomUUID(),
            folder,
            overwrite: req.overwrite === true,
            allTakes: req.allTakes,
            onProgress: (p) => this.emit('convertProgress', p),
          });
        } finally {
          this.convertBusy = false;
        }
      },
    };
  }
}
