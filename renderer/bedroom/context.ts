/**
 * What the studio hands the bedroom (declared once; renderer/shell/sceneSwitcher.ts builds it):
 * the current avatar, optional access to the user's files and opened folders, and the settings
 * store (StudioApi settings, or the page's storage in a plain static build).
 */
import type { BedroomSettings } from '../../shared/contract/bedroomSettings';

export interface BedroomContext {
  /** The current avatar as GLB bytes (VRM 0.x or 1.0) and its name; empty bytes: the mannequin. */
  getAvatar(): { readonly bytes: Uint8Array; readonly name: string };
  /** Reads a file the user opened or that sits in an opened folder (for the remembered sleep poses). */
  readUserFile?(path: string): Promise<Uint8Array>;
  /** The .vpd and one-frame .vrma files of the folders opened in the studio (see poseLibrary.ts). */
  listPoseFiles?(): Promise<{ path: string; name: string }[]>;
  /** Calls back when the opened folders change on disk; returns the unsubscribe. */
  onPoseFilesChanged?(cb: () => void): () => void;
  /** Whatever was stored (sanitized by the bedroom) and where the bedroom stores its settings. */
  readonly settings: { get(): unknown; set(value: BedroomSettings): void };
}

export interface BedroomHandle {
  dispose(): void;
}
