/** What the hosts (Electron, the browser host) hand the backend: dialogs, the folder converter, callbacks. */
import type { ConvertProgress, ConvertSummary, DocumentState, MenuCommand, PlatformInfo, RecentEntry } from '../../shared/contract/studioApi';
import type { FileDescriber } from './fileDetails';
import type { CloseDecision } from './closeGuard';

/** Native dialogs (Electron). Without them paths typed in the UI are accepted (browser host). */
export interface Dialogs {
  openFolder(): Promise<string | null>;
  openFile(): Promise<string | null>;
  saveFileAs(suggestedName: string): Promise<string | null>;
}

export type FolderConverter =
  & ((job: {
    jobId: string;
    folder: string;
    overwrite: boolean;
    /** More than 50 takes from one file: true writes them, false leaves such files out, undefined asks (CONFIRM). */
    allTakes?: boolean;
    onProgress: (p: ConvertProgress) => void;
  }) => Promise<ConvertSummary>)
  & {
    /** Describes a library file on the converter's long-lived worker thread (describeFile of the library). */
    readonly describe?: FileDescriber;
    /** Stops that worker (dispose). */
    close?(): Promise<void>;
  };

export interface BackendOptions {
  host: PlatformInfo['host'];
  userDataDir: string;
  appVersion: string;
  dialogs?: Dialogs;
  converter?: FolderConverter;
  onCommands?: (commands: MenuCommand[]) => void;
  onDocumentState?: (state: DocumentState) => void;
  onRecentChanged?: (entries: RecentEntry[]) => void;
  /** Library change coalescing (ms). */
  watchCoalesceMs?: number;
  autosaveDelayMs?: number;
  /** The user's home folder (typed paths outside it need the user's confirmation); os.homedir() by default. */
  homeDir?: string;
  /** Main's own "unsaved changes" dialog, when the page does not answer a close request (hung renderer). */
  closeFallback?: () => Promise<CloseDecision>;
  /** How long the page has to show its close dialog (ms); CLOSE_ACK_TIMEOUT_MS by default. */
  closeAckTimeoutMs?: number;
}
