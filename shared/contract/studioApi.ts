/**
 * The StudioApi contract: every call the studio UI (renderer) can make to the outside world and every
 * event it can receive. Implemented twice with the same semantics:
 *  - Electron: preload/index.ts exposes `window.studio` (ipcRenderer.invoke underneath, main/electron).
 *  - Browser host: renderer/platform/httpStudioApi.ts talks to main/host over loopback HTTP.
 * Both sides run the same Electron-free services (main/services/backend.ts).
 *
 * Payloads are structured-clone friendly (plain objects, arrays, strings, numbers, booleans, null and
 * Uint8Array for bytes), so they cross IPC and the HTTP wire format (shared/contract/wire.ts) unchanged.
 *
 * Paths are absolute OS paths. The renderer may only name paths it was given by this API (opened,
 * dropped, recent, listed in an opened folder); anything else is refused with code 'DENIED'.
 *
 * Request types (what the renderer sends) are inferred from the one valibot schema in schema.ts,
 * which both boundaries run; reply types are plain interfaces here.
 */
import type {
  AutosaveSessionSchema,
  AvatarRefSchema,
  CloseAnswerSchema,
  ConvertFolderRequestSchema,
  DocumentStateSchema,
  ExportRequestSchema,
  Infer,
  MenuCommandSchema,
  OpenOptionsSchema,
  SaveAsRequestSchema,
  SaveRequestSchema,
} from './schema';
import { studioExtensionOf, type StudioFileExtension } from '../formats/formats';
import type { MotionErrorInfo } from '../errors';
import type { FileProblem } from '../fileProblem';
import type { MotionWarning } from '../warnings';
import type { TakeInfo } from '../convert/takeInfo';
import type { Piece } from './pieces';

/** File types the studio understands (avatars .vrm/.glb, motions): listed once in shared/formats/formats.ts. */
export { STUDIO_FILE_EXTENSIONS, type StudioFileExtension } from '../formats/formats';

export type Unsubscribe = () => void;

/** The part of a DOM File the contract needs (shared/ sees no DOM types; a File satisfies this). */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
}

export interface PlatformInfo {
  /** Which implementation answers: the Electron app or the loopback browser host. */
  readonly host: 'electron' | 'browser';
  /** process.platform of the machine holding the files ('linux', 'darwin', 'win32', ...). */
  readonly os: string;
  readonly appVersion: string;
  /**
   * True when openFolder()/openFile()/saveFileAs() without a path show a native dialog (Electron).
   * False in the browser host: the UI asks for a path in a text field and passes it in.
   */
  readonly nativeDialogs: boolean;
  /** Where settings, recent list and autosave live (shown in the UI / README). */
  readonly userDataDir: string;
  /**
   * True only when the app or host was started with VRMA_STUDIO_TEST_HOOK=1 (e2e tests, bench): the
   * page then loads its test instrumentation (window.__studio, window.__bedroom). Absent otherwise.
   */
  readonly testHook?: boolean;
}

/** One file of an opened folder. */
export interface LibraryEntry {
  readonly path: string;
  /** Path relative to the folder root, always with '/' separators. */
  readonly relPath: string;
  readonly name: string;
  readonly ext: StudioFileExtension;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface LibrarySnapshot {
  readonly root: string;
  /** Sorted by relPath. */
  readonly entries: readonly LibraryEntry[];
}

/** What changed on disk under an opened folder. A rename arrives as one removal and one addition. */
export interface LibraryChange {
  readonly root: string;
  readonly added: readonly LibraryEntry[];
  readonly changed: readonly LibraryEntry[];
  /** Paths that disappeared. */
  readonly removed: readonly string[];
}

/** Worked out lazily per file (describeFile), cached by size and mtime. */
export interface FileDetails {
  readonly path: string;
  /**
   * 'motion' (several frames), 'pose' (one frame), 'avatar' (.vrm, a .glb avatar), 'model' (an MMD
   * .pmx/.pmd: the skeleton for the MMD motions of its folder), 'video' (captured into a motion on open), 'unreadable' (see error).
   */
  readonly kind: 'motion' | 'pose' | 'avatar' | 'model' | 'video' | 'unreadable';
  /** Seconds (an .fbx/.glb: its first take, the one opened by default); 0 for a pose; absent for avatars, models and unreadable files. */
  readonly duration?: number;
  /** The takes of an .fbx/.glb/.gltf (also of a VRM avatar that carries animations), as `convert --list-takes` lists them. */
  readonly takes?: readonly TakeInfo[];
  readonly error?: string;
  /** The core's error behind `error`, as data, so the studio words it in its language. */
  readonly problem?: MotionErrorInfo;
}

export interface OpenedFile {
  readonly path: string;
  readonly name: string;
  readonly ext: StudioFileExtension;
  readonly bytes: Uint8Array;
}

export interface SaveResult {
  readonly path: string;
  readonly size: number;
}

/** Save: `path` is an existing, writable file the user opened (or saved to) earlier; overwritten atomically. */
export type SaveRequest = Infer<typeof SaveRequestSchema>;

/** Save As: the dialog (Electron) or `path` (browser host) names the target. */
export type SaveAsRequest = Infer<typeof SaveAsRequestSchema>;

/**
 * Export next to the source: walk.vmd -> walk.vrma (then walk-2.vrma, ... if taken); an edited
 * walk.vrma -> walk.edited.vrma, then walk.edited-2.vrma, ...; with `overwrite` the first name is
 * used even when it exists (walk.vrma for walk.vmd, the source itself for walk.vrma).
 * Without a sourcePath the motion has no home: use saveFileAs.
 */
export type ExportRequest = Infer<typeof ExportRequestSchema>;

export type ConvertFolderRequest = Infer<typeof ConvertFolderRequestSchema>;

/** Options of openFolder/openFile with a typed path. */
export type OpenOptions = Infer<typeof OpenOptionsSchema>;

export interface ConvertProgress {
  readonly jobId: string;
  readonly done: number;
  readonly total: number;
  /** File just finished. */
  readonly path: string;
  readonly status: 'converted' | 'skipped' | 'failed';
}

export interface ConvertSummary {
  readonly jobId: string;
  readonly folder: string;
  /** `warnings`: what the reader and converter of each file noted (worded by the studio, warning.*). */
  readonly converted: readonly { readonly source: string; readonly target: string; readonly warnings?: readonly MotionWarning[] }[];
  /** Sources whose .vrma already existed. */
  readonly skipped: readonly string[];
  /**
   * Takes and files that hold no motion, left out without failing: a take with no keys (Mixamo's empty
   * "Take 001" beside "mixamo.com"; `take` names it) or a file with no animation at all.
   */
  readonly empty?: readonly { readonly source: string; readonly reason: 'NO_KEYS' | 'NO_ANIMATION'; readonly take?: string }[];
  /**
   * `message` in English; `problem`, when the core refused the file, or `fileProblem`, when the file
   * could not be read or its .vrma written, for the studio to word it.
   */
  readonly failed: readonly { readonly source: string; readonly message: string; readonly problem?: MotionErrorInfo; readonly fileProblem?: FileProblem }[];
  readonly elapsedMs: number;
}

export interface RecentEntry {
  readonly path: string;
  readonly kind: 'folder' | 'file';
  readonly openedAt: number;
}

/** The avatar on screen: the built-in mannequin or a file. */
export type AvatarRef = Infer<typeof AvatarRefSchema>;

/** Everything needed to put the studio back exactly as it was. */
export type AutosaveSession = Infer<typeof AutosaveSessionSchema>;

export type RecoveredSession = AutosaveSession & { readonly savedAt: number };

export * from './settings';
import type { Settings, SettingsPatch } from './settings';

/** One entry of the studio's command registry, mirrored into the native menu (Electron). */
export type MenuCommand = Infer<typeof MenuCommandSchema>;

export type DocumentState = Infer<typeof DocumentStateSchema>;

/** The OS (argv, second instance, open-file, host command line) asked the studio to open something. */
export interface OpenRequest {
  readonly kind: 'file' | 'folder';
  readonly path: string;
}

export interface StudioApi {
  getPlatform(): Promise<PlatformInfo>;

  /**
   * Opens a folder (native dialog when no path is given and dialogs exist); null when cancelled.
   * A typed path outside the home folder, or a system folder, is refused with code 'CONFIRM' until
   * the page has asked the user and calls again with `{ confirmed: true }` (browser host).
   */
  openFolder(path?: string, options?: OpenOptions): Promise<LibrarySnapshot | null>;
  closeFolder(root: string): Promise<void>;
  /** Every opened folder with its files. */
  listLibrary(): Promise<LibrarySnapshot[]>;
  /** Kind and duration of one file, worked out on demand. */
  describeFile(path: string): Promise<FileDetails>;
  onLibraryChanged(cb: (change: LibraryChange) => void): Unsubscribe;

  /** Opens a file (native dialog when no path is given and dialogs exist); null when cancelled. */
  openFile(path?: string, options?: OpenOptions): Promise<OpenedFile | null>;
  /** Bytes of a file inside an opened folder or opened before. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * The MMD model (.pmx/.pmd) in the same folder as a .vmd/.vpd the page was given, looked up by main
   * among the files of the opened folders (main/services/mmdModelBeside.ts); null when there is none.
   * The page reads it with readFile.
   */
  findMmdModel(motionPath: string): Promise<{ readonly path: string; readonly name: string } | null>;
  /**
   * A file or folder dropped from the OS (path from pathForFile). Files must have a studio extension.
   * A folder opens as a library folder. Electron only: main accepts only paths its preload saw in a
   * real (trusted) drop event moments before, so the page cannot name a path to grant itself.
   */
  openDropped(path: string): Promise<{ kind: 'file'; file: OpenedFile } | { kind: 'folder'; library: LibrarySnapshot }>;
  /** OS path of a dropped File (Electron); null in the browser, where the renderer reads the File itself. */
  pathForFile(file: DroppedFile): string | null;

  saveFile(req: SaveRequest): Promise<SaveResult>;
  /** null when the dialog was cancelled. */
  saveFileAs(req: SaveAsRequest): Promise<SaveResult | null>;
  exportMotion(req: ExportRequest): Promise<SaveResult>;
  /** Converts every convertible motion under the folder (shared/formats/formats.ts) to .vrma beside it, in a worker. */
  convertFolder(req: ConvertFolderRequest): Promise<ConvertSummary>;
  onConvertProgress(cb: (progress: ConvertProgress) => void): Unsubscribe;

  listRecent(): Promise<RecentEntry[]>;
  clearRecent(): Promise<void>;

  /**
   * One piece of a large byte block that a following call names with a PieceRef instead of the bytes
   * (contract/pieces.ts): Save sends the file this way, so it can stop between pieces and leave the
   * old file. Optional: a StudioApi without it gets the bytes in the call itself.
   */
  putPiece?(piece: Piece): Promise<void>;

  /** Call after every change; written 250 ms after the last call, at most 1 s after the first unsaved one (main/services/autosave.ts). */
  autosave(session: AutosaveSession): Promise<void>;
  /** After a clean save or close: removes the autosave. */
  clearAutosave(): Promise<void>;
  /** The session left by a crash, if any. */
  checkRecovery(): Promise<RecoveredSession | null>;

  getSettings(): Promise<Settings>;
  setSettings(patch: SettingsPatch): Promise<Settings>;

  /** The studio's command registry, mirrored into the native menu (no-op in the browser). */
  setCommands(commands: MenuCommand[]): Promise<void>;
  /** A menu item was chosen: the command id. */
  onCommand(cb: (id: string) => void): Unsubscribe;
  setDocumentState(state: DocumentState): Promise<void>;
  /** Paths given at launch (argv / host command line), handed out once. */
  takeLaunchRequests(): Promise<OpenRequest[]>;
  /** The OS asked to open something while running (second instance, open-file). */
  onOpenRequest(cb: (req: OpenRequest) => void): Unsubscribe;

  /**
   * The window is about to close (or the app to quit) with unsaved changes (Electron; the browser
   * uses beforeunload). The page shows its Save / Don't save / Cancel dialog and answers with
   * answerClose: 'shown' at once (else main's own dialog takes over after a few seconds, see
   * main/services/closeGuard.ts), then 'close' (saved or Don't save) or 'cancel'.
   */
  onCloseRequest(cb: (req: CloseRequest) => void): Unsubscribe;
  answerClose(id: number, answer: CloseAnswer): Promise<void>;
}

/** A close waiting for the page's answer; `id` goes back with answerClose. */
export interface CloseRequest {
  readonly id: number;
}
export type CloseAnswer = Infer<typeof CloseAnswerSchema>;

/** Names of the request/response methods (everything but events and pathForFile). */
export type StudioInvokeMethod = Exclude<
  keyof StudioApi,
  'pathForFile' | 'putPiece' | 'onLibraryChanged' | 'onConvertProgress' | 'onCommand' | 'onOpenRequest' | 'onCloseRequest'
>;

export const STUDIO_INVOKE_METHODS = [
  'getPlatform',
  'openFolder',
  'closeFolder',
  'listLibrary',
  'describeFile',
  'openFile',
  'readFile',
  'findMmdModel',
  'openDropped',
  'saveFile',
  'saveFileAs',
  'exportMotion',
  'convertFolder',
  'listRecent',
  'clearRecent',
  'autosave',
  'clearAutosave',
  'checkRecovery',
  'getSettings',
  'setSettings',
  'setCommands',
  'setDocumentState',
  'takeLaunchRequests',
  'answerClose',
] as const satisfies readonly StudioInvokeMethod[];

/** Events pushed from the backend, with their payloads. */
export interface StudioEvents {
  libraryChanged: LibraryChange;
  convertProgress: ConvertProgress;
  command: string;
  openRequest: OpenRequest;
  closeRequest: CloseRequest;
}
export type StudioEventName = keyof StudioEvents;
export const STUDIO_EVENT_NAMES = ['libraryChanged', 'convertProgress', 'command', 'openRequest', 'closeRequest'] as const satisfies readonly StudioEventName[];

/** IPC channel names (Electron). */
export const ipcInvokeChannel = (method: StudioInvokeMethod): string => `studio:${method}`;
export const ipcEventChannel = (event: StudioEventName): string => `studio-event:${event}`;
/**
 * Preload -> main only (not part of window.studio): OS paths of the files in a trusted drop event,
 * the only paths openDropped accepts.
 */
export const IPC_DROPPED_CHANNEL = 'studio-dropped';
/** Preload -> main: StudioApi.putPiece (not an invoke method: it only stores bytes for the next call). */
export const IPC_PIECE_CHANNEL = 'studio-piece';

/** Error codes every implementation uses; the renderer branches on `code`. */
export type StudioErrorCode =
  | 'DENIED' // path outside what the user opened, bad origin, missing token
  | 'NOT_FOUND'
  | 'EXISTS' // target exists and overwrite was not asked
  | 'BAD_ARGUMENT'
  | 'BAD_FILE' // the file could not be read as what it claims to be
  | 'BUSY'
  | 'CONFIRM' // ask the user, then call again confirmed: a typed path outside home, system or hidden folder; Convert Folder's files of more than 50 takes (allTakes)
  | 'INTERNAL';

export interface StudioErrorInfo {
  readonly code: StudioErrorCode;
  readonly message: string;
  /** The file-system error behind it (Node's code and the path), for the studio to word in its language. */
  readonly fileProblem?: FileProblem;
}

/** Error thrown by both implementations (over IPC it is rebuilt by the preload as an Error with `code`). */
export class StudioApiError extends Error {
  readonly code: StudioErrorCode;
  readonly fileProblem?: FileProblem;
  constructor(code: StudioErrorCode, message: string, fileProblem?: FileProblem) {
    super(message);
    this.name = 'StudioApiError';
    this.code = code;
    if (fileProblem) this.fileProblem = fileProblem;
  }
}

/** Electron IPC result envelope: errors travel as data so their code survives. */
export type IpcResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: StudioErrorInfo };

/** The studio file type of a path, or null when the studio does not open it. */
export function extensionOf(path: string): StudioFileExtension | null {
  return studioExtensionOf(path);
}
