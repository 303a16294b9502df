/**
 * Electron main: one studio window over the shared backend (main/services/backend.ts).
 *
 * Security: the page is served from app://studio (a privileged standard scheme, never file://) with a
 * strict CSP; contextIsolation and sandbox on, nodeIntegration off; navigation, new windows, webviews
 * and permission requests are refused, so a file dropped on the window is handled by the page and
 * never replaces it. IPC calls are accepted only from our origin's main frame (ipc.ts).
 */
import { STUDIO_FILE_EXTENSIONS } from '../../shared/formats/formats';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell, type MenuItemConstructorOptions, type Rectangle } from 'electron';
import { promises as fs } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { IPC_DROPPED_CHANNEL, STUDIO_EVENT_NAMES, extensionOf, type MenuCommand, type RecentEntry } from '../../shared/contract/studioApi';
import { isInside } from '../services/accessPolicy';
import { StudioBackend } from '../services/backend';
import type { Dialogs } from '../services/backendOptions';
import { CONTENT_TYPES, cspFor } from '../services/contentSecurity';
import { createWorkerConverter } from '../services/convertFolder';
import { USER_DATA_FOLDER_NAME } from '../services/userData';
import { aboutText, isCreditLink } from './credits';
import { registerStudioIpc, sendStudioEvent } from './ipc';
import { buildMenuTemplate } from './menuTemplate';
import { isTrustedSender, originOf } from './senderCheck';
import { detectLocale, setLocale, t } from '../../shared/i18n';

const APP_SCHEME = 'app';
const APP_HOST = 'studio';
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
const RENDERER_DIR = join(__dirname, '..', 'renderer');
const PRELOAD = join(__dirname, '..', 'preload', 'index.cjs');
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const pageOrigin = devServerUrl ? originOf(devServerUrl)! : APP_ORIGIN;

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
]);

// Settings, recent list and autosave live in the same folder as the browser host's.
app.setPath('userData', process.env.VRMA_USER_DATA ? resolve(process.env.VRMA_USER_DATA) : join(app.getPath('appData'), USER_DATA_FOLDER_NAME));

let win: BrowserWindow | null = null;
let commands: MenuCommand[] = [];
let recent: RecentEntry[] = [];
let documentDirty = false;
/** The user (in the page's dialog or main's own) chose to close: the next 'close' goes through. */
let closeDecided = false;
/** The close came from quitting (menu Quit, Cmd+Q): after the user's choice the app quits, not just the window. */
let quitting = false;
const pendingOsPaths: string[] = [];

const dialogs: Dialogs = {
  openFolder: async () => {
    const r = await dialog.showOpenDialog(win!, { title: t('menu.dialog.openFolder'), properties: ['openDirectory'] });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
  openFile: async () => {
    const r = await dialog.showOpenDialog(win!, {
      title: t('menu.dialog.openFile'),
      properties: ['openFile'],
      filters: [{ name: t('menu.dialog.openFilter'), extensions: STUDIO_FILE_EXTENSIONS.map((e) => e.slice(1)) }],
    });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
  saveFileAs: async (suggestedName) => {
    const settings = await backend.settings.get();
    const r = await dialog.showSaveDialog(win!, {
      title: t('menu.dialog.saveAs'),
      defaultPath: join(settings.lastFolder ?? app.getPath('documents'), suggestedName),
      filters: [{ name: t('menu.dialog.vrmaFilter'), extensions: ['vrma'] }],
    });
    return r.canceled || !r.filePath ? null : r.filePath;
  },
};

const backend = new StudioBackend({
  host: 'electron',
  userDataDir: app.getPath('userData'),
  appVersion: app.getVersion(),
  // Worker threads cannot load scripts from inside app.asar: electron-builder.yml unpacks the worker.
  converter: createWorkerConverter(join(__dirname, 'convertWorker.js').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')),
  dialogs,
  // The page did not show its dialog in time (hung renderer): main asks on its own.
  closeFallback: async () => {
    if (!win || win.isDestroyed()) return 'close';
    const { response } = await dialog.showMessageBox(win, {
      type: 'warning',
      buttons: [t('menu.dialog.cancel'), t('menu.dialog.closeWithoutSaving')],
      defaultId: 0,
      cancelId: 0,
      message: t('menu.dialog.unsaved'),
      detail: t('menu.dialog.unsavedDetail'),
    });
    return response === 1 ? 'close' : 'cancel';
  },
  onCommands: (list) => {
    commands = list;
    rebuildMenu();
  },
  onDocumentState: (state) => {
    documentDirty = state.dirty;
    if (!win) return;
    win.setTitle(`${state.dirty ? '• ' : ''}${state.title}`);
    if (process.platform === 'darwin') {
      win.setDocumentEdited(state.dirty);
      if (state.path) win.setRepresentedFilename(state.path);
    }
  },
  onRecentChanged: (entries) => {
    recent = entries;
    if (entries[0]) app.addRecentDocument(entries[0].path);
    rebuildMenu();
  },
});

/** Paths among command-line arguments (flags and Electron's own arguments skipped). */
function pathsFromArgv(argv: string[], cwd: string): string[] {
  // argv[0] is the executable; in development the app folder follows (and tools may insert switches).
  const appPath = resolve(app.getAppPath());
  return argv
    .slice(1)
    .filter((a) => !a.startsWith('-'))
    .map((a) => resolve(cwd, a))
    .filter((p) => p !== appPath && p !== resolve(appPath, 'out', 'main', 'index.js'));
}

async function openFromOs(path: string, push: boolean): Promise<void> {
  const st = await fs.stat(path).catch(() => null);
  if (!st || (st.isFile() && !extensionOf(path))) return;
  await backend.grantOsPath(path, { push });
  if (push && win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
}

function applyMenu(template: MenuItemConstructorOptions[]): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** The OS's languages, most preferred first (Electron's app locale, then the system list). */
function systemLanguages(): string[] {
  return [app.getLocale(), ...app.getPreferredSystemLanguages()];
}

/** Main's texts (menu, dialogs) follow the language the user chose in the studio, else the system's. */
async function syncLocale(): Promise<void> {
  const chosen = (await backend.settings.get().catch(() => null))?.language ?? 'system';
  setLocale(chosen === 'system' ? detectLocale(systemLanguages()) : chosen);
}

function rebuildMenu(): void {
  // The page re-sends its commands after a language switch; the setting is stored before that.
  void syncLocale().then(buildMenu);
}

function buildMenu(): void {
  applyMenu(
    buildMenuTemplate(commands, recent, {
      isDev: !app.isPackaged,
      sendCommand: (id) => win && sendStudioEvent(win.webContents, 'command', id),
      openFolder: async () => {
        const path = await dialogs.openFolder();
        if (path) await backend.grantOsPath(path, { push: true });
      },
      openFile: async () => {
        const path = await dialogs.openFile();
        if (path) await backend.grantOsPath(path, { push: true });
      },
      openRecent: (entry) => void backend.grantOsPath(entry.path, { push: true }),
      clearRecent: async () => {
        await backend.recent.clear();
        app.clearRecentDocuments();
        recent = [];
        rebuildMenu();
      },
      about: () => void dialog.showMessageBox(win!, { type: 'info', title: t('menu.about'), message: 'VRMA Studio', detail: aboutText(app.getVersion()), buttons: [t('menu.ok')] }),
    }),
  );
}

/** app://studio/<path> -> a file of the built renderer, with the CSP; nothing outside that folder. */
function serveAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
    let rel = decodeURIComponent(url.pathname);
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = resolve(RENDERER_DIR, `.${rel}`);
    if (!isInside(RENDERER_DIR, file)) return new Response('not found', { status: 404 });
    try {
      const body = await fs.readFile(file);
      return new Response(body, {
        headers: {
          'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
          'Content-Security-Policy': cspFor(rel),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}

async function restoredBounds(): Promise<Partial<Rectangle> & { maximized?: boolean }> {
  const b = (await backend.settings.get()).windowBounds;
  if (!b) return { width: 1400, height: 900 };
  // Only reuse a position that is still on a connected display.
  const area = screen.getDisplayMatching(b).workArea;
  const visible = b.x < area.x + area.width && b.x + b.width > area.x && b.y < area.y + area.height && b.y + b.height > area.y;
  return visible ? b : { width: b.width, height: b.height, maximized: b.maximized };
}

async function createWindow(): Promise<void> {
  closeDecided = false;
  const bounds = await restoredBounds();
  win = new BrowserWindow({
    ...bounds,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'VRMA Studio',
    backgroundColor: '#1b1d21',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  });
  if (bounds.maximized) win.maximize();
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    // Only the credits' links open, in the user's browser; the app never opens windows of its own.
    if (isCreditLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const pageUrl = devServerUrl ?? `${APP_ORIGIN}/index.html`;
  // The OS language reaches the page as ?locale= (the page's own choice in the settings wins over it).
  const stay = (e: Electron.Event, url: string) => {
    if (originOf(url) !== pageOrigin || !url.startsWith(pageUrl.replace(/index\.html$/, ''))) e.preventDefault();
  };
  contents.on('will-navigate', stay);
  contents.on('will-redirect', stay);
  contents.on('will-frame-navigate', (e) => {
    if (originOf(e.url) !== pageOrigin) e.preventDefault();
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());

  const unsubscribe = STUDIO_EVENT_NAMES.map((name) => backend.on(name, (payload) => sendStudioEvent(contents, name, payload as never)));
  win.on('closed', () => {
    unsubscribe.forEach((off) => off());
    win = null;
  });

  let boundsTimer: NodeJS.Timeout | null = null;
  const saveBounds = () => {
    if (boundsTimer) clearTimeout(boundsTimer);
    boundsTimer = setTimeout(() => {
      if (!win || win.isDestroyed()) return;
      const n = win.getNormalBounds();
      void backend.settings.set({ windowBounds: { ...n, maximized: win.isMaximized() } });
    }, 500);
  };
  win.on('resize', saveBounds);
  win.on('move', saveBounds);
  win.on('close', (e) => {
    if (documentDirty && !closeDecided) {
      // Unsaved changes: the page's own Save / Don't save / Cancel dialog decides (main/services/closeGuard.ts).
      e.preventDefault();
      const closing = win;
      void backend.closeGuard.request(true).then((decision) => {
        if (decision === 'cancel') {
          quitting = false;
          return;
        }
        closeDecided = true;
        if (quitting) app.quit();
        else if (closing && !closing.isDestroyed()) closing.close();
      });
      return;
    }
    // A deliberate close is clean: no recovery offer next time.
    documentDirty = false;
    void backend.autosaveStore.clear();
  });
  win.once('ready-to-show', () => win?.show());
  await win.loadURL(`${pageUrl}?locale=${encodeURIComponent(systemLanguages()[0] ?? 'en')}`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_e, argv, cwd) => {
    for (const p of pathsFromArgv(argv, cwd)) void openFromOs(p, true);
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('open-file', (e, path) => {
    e.preventDefault();
    if (app.isReady() && win) void openFromOs(path, true);
    else pendingOsPaths.push(path);
  });

  app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    serveAppProtocol();
    registerStudioIpc(backend, (event) => isTrustedSender(event, pageOrigin));
    // Paths of a real drop, from the preload (see preload/index.ts): the only ones openDropped grants.
    ipcMain.on(IPC_DROPPED_CHANNEL, (event, paths: unknown) => {
      if (!isTrustedSender(event, pageOrigin) || !Array.isArray(paths)) return;
      void backend.noteDropped(paths.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 4096));
    });
    recent = await backend.recent.list().catch(() => []);
    rebuildMenu();
    for (const p of [...pathsFromArgv(process.argv, process.cwd()), ...pendingOsPaths]) await openFromOs(p, false);
    await createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void createWindow();
    });
  });

  app.on('before-quit', () => {
    quitting = true;
    void backend.flushAutosave();
  });
  app.on('window-all-closed', async () => {
    await backend.dispose();
    if (process.platform !== 'darwin') app.quit();
  });
}
