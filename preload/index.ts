/**
 * The typed bridge: window.studio implements the StudioApi contract with one named function per
 * method. Calls go through ipcRenderer.invoke; main answers with an IpcResult envelope so error
 * codes survive the trip. Event listeners receive only the payload (never the IpcRendererEvent,
 * which would hand the page a sender object) and are removed by the function each `on...` returns.
 *
 * Imports: electron and the contract's types only (the preload runs sandboxed, bundled to one file).
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type {
  AutosaveSession,
  CloseAnswer,
  CloseRequest,
  ConvertFolderRequest,
  ConvertProgress,
  DocumentState,
  DroppedFile,
  ExportRequest,
  IpcResult,
  LibraryChange,
  MenuCommand,
  OpenOptions,
  OpenRequest,
  SaveAsRequest,
  SaveRequest,
  SettingsPatch,
  StudioApi,
  StudioEventName,
  StudioEvents,
  StudioInvokeMethod,
  Unsubscribe,
} from '../shared/contract/studioApi';
import type { Piece } from '../shared/contract/pieces';

// Channel names are spelled out here (the contract's helpers are runtime code the preload does not import).
const invokeChannel = (method: StudioInvokeMethod) => `studio:${method}`;
const eventChannel = (event: StudioEventName) => `studio-event:${event}`;
const PIECE_CHANNEL = 'studio-piece'; // = IPC_PIECE_CHANNEL

async function invoke<T>(method: StudioInvokeMethod, ...args: unknown[]): Promise<T> {
  return unwrap<T>(await ipcRenderer.invoke(invokeChannel(method), ...args));
}

function unwrap<T>(reply: unknown): T {
  const result = reply as IpcResult<T>;
  if (result.ok) return result.value;
  const error = new Error(result.error.message) as Error & { code: string; fileProblem?: unknown };
  error.name = 'StudioApiError';
  error.code = result.error.code;
  if (result.error.fileProblem) error.fileProblem = result.error.fileProblem;
  throw error;
}

function subscribe<K extends StudioEventName>(event: K, cb: (payload: StudioEvents[K]) => void): Unsubscribe {
  if (typeof cb !== 'function') throw new TypeError(`${event} listener must be a function`);
  const listener = (_event: IpcRendererEvent, payload: StudioEvents[K]) => cb(payload);
  ipcRenderer.on(eventChannel(event), listener);
  return () => {
    ipcRenderer.removeListener(eventChannel(event), listener);
  };
}

const studio: StudioApi = {
  getPlatform: () => invoke('getPlatform'),

  openFolder: (path?: string, options?: OpenOptions) => invoke('openFolder', path, options),
  closeFolder: (root: string) => invoke('closeFolder', root),
  listLibrary: () => invoke('listLibrary'),
  describeFile: (path: string) => invoke('describeFile', path),
  onLibraryChanged: (cb: (change: LibraryChange) => void) => subscribe('libraryChanged', cb),

  openFile: (path?: string, options?: OpenOptions) => invoke('openFile', path, options),
  readFile: (path: string) => invoke('readFile', path),
  findMmdModel: (motionPath: string) => invoke('findMmdModel', motionPath),
  openDropped: (path: string) => invoke('openDropped', path),
  pathForFile: (file: DroppedFile) => {
    try {
      return webUtils.getPathForFile(file as File) || null;
    } catch {
      return null; // not a File from an OS drop (e.g. made by script)
    }
  },

  saveFile: (req: SaveRequest) => invoke('saveFile', req),
  saveFileAs: (req: SaveAsRequest) => invoke('saveFileAs', req),
  exportMotion: (req: ExportRequest) => invoke('exportMotion', req),
  convertFolder: (req: ConvertFolderRequest) => invoke('convertFolder', req),
  onConvertProgress: (cb: (progress: ConvertProgress) => void) => subscribe('convertProgress', cb),

  listRecent: () => invoke('listRecent'),
  clearRecent: () => invoke('clearRecent'),

  // Bytes of a large file ahead of the call that names them (shared/contract/pieces.ts), one message a piece.
  putPiece: async (piece: Piece) => void unwrap<null>(await ipcRenderer.invoke(PIECE_CHANNEL, piece)),
  autosave: (session: AutosaveSession) => invoke('autosave', session),
  clearAutosave: () => invoke('clearAutosave'),
  checkRecovery: () => invoke('checkRecovery'),

  getSettings: () => invoke('getSettings'),
  setSettings: (patch: SettingsPatch) => invoke('setSettings', patch),

  setCommands: (commands: MenuCommand[]) => invoke('setCommands', commands),
  onCommand: (cb: (id: string) => void) => subscribe('command', cb),
  setDocumentState: (state: DocumentState) => invoke('setDocumentState', state),
  takeLaunchRequests: () => invoke('takeLaunchRequests'),
  onOpenRequest: (cb: (req: OpenRequest) => void) => subscribe('openRequest', cb),
  onCloseRequest: (cb: (req: CloseRequest) => void) => subscribe('closeRequest', cb),
  answerClose: (id: number, answer: CloseAnswer) => invoke('answerClose', id, answer),
};

/**
 * Drops, seen from here: a real OS drop (isTrusted; a page cannot forge one with files that have
 * paths) tells main which paths the user dropped, on a channel the page cannot reach. Main opens with
 * openDropped only those, for a minute, so the page can never name a path to grant itself. Capture
 * phase on window: this runs before the page's own drop handler asks for openDropped.
 */
const DROPPED_CHANNEL = 'studio-dropped'; // = IPC_DROPPED_CHANNEL (the preload imports no runtime code)
window.addEventListener(
  'drop',
  (e: DragEvent) => {
    if (!e.isTrusted || !e.dataTransfer) return;
    const paths: string[] = [];
    for (const f of Array.from(e.dataTransfer.files)) {
      try {
        const p = webUtils.getPathForFile(f);
        if (p) paths.push(p);
      } catch {
        /* not a file from the OS */
      }
    }
    if (paths.length) ipcRenderer.send(DROPPED_CHANNEL, paths);
  },
  true,
);

contextBridge.exposeInMainWorld('studio', studio);
