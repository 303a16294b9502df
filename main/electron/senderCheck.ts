/**
 * Who may call the StudioApi over IPC: only the main frame of our own page (app://studio, or the
 * dev server in development). Subframes, other origins and pages navigated elsewhere are refused.
 * Kept free of Electron's runtime so it is unit-tested directly.
 */
import type { IpcMainInvokeEvent } from 'electron';

/** The parts of an IpcMainInvokeEvent the check reads. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender: Pick<IpcMainInvokeEvent['sender'], 'mainFrame'> };

/** True when the call comes from our app's origin, in the main frame of one of our windows. */
export type SenderCheck = (event: SenderEvent) => boolean;

export function isTrustedSender(event: SenderEvent, appOrigin: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  return originOf(frame.url) === appOrigin;
}

/** scheme://host of a URL. Not URL.origin: for a custom scheme such as app:// WHATWG URL reports "null". */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}
