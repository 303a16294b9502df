/**
 * One StudioApi call to the loopback browser host: POST /api/call/<method> with the arguments in the
 * wire envelope (shared/contract/wire.ts); the reply is {value} or, with an error status,
 * {error: {code, message}}. Used by the page's HTTP client and by the autosave worker, which has no
 * window (the caller passes the absolute call URL and the token).
 */
import { StudioApiError, type StudioErrorInfo } from '../../shared/contract/studioApi';
import { decodeWire, encodeWireParts, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import { joinBytes } from '../../shared/bytes';

export const TOKEN_HEADER = 'X-VRMA-Token';
/** The host's answers are trusted and may list big libraries: a higher JSON limit than requests get. */
const ANSWER_LIMITS = { maxJsonBytes: 256 * 1024 * 1024 } as const;

/** Where the host answers calls: `${base}/api/call/<method>` with the token in the header. */
export interface WireCallTarget {
  readonly baseUrl: string;
  readonly token: string;
}

export async function wireFailure(res: Response): Promise<StudioApiError> {
  let info: StudioErrorInfo = { code: 'INTERNAL', message: `${res.status} ${res.statusText}` };
  try {
    const body = decodeWire(new Uint8Array(await res.arrayBuffer()), ANSWER_LIMITS) as { error?: StudioErrorInfo };
    if (body?.error) info = body.error;
  } catch {
    /* keep the status line */
  }
  return new StudioApiError(info.code, info.message, info.fileProblem);
}

/** `signal` aborts the request (a body not all sent is never run by the host). */
export async function postWireCall<T>(target: WireCallTarget, method: string, args: unknown[], signal?: AbortSignal): Promise<T> {
  // Trailing undefined (left-out optional arguments) would arrive as null in JSON: drop them.
  args = args.slice();
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  const res = await fetch(`${target.baseUrl}/api/call/${method}`, {
    method: 'POST',
    headers: { [TOKEN_HEADER]: target.token, 'Content-Type': WIRE_CONTENT_TYPE },
    body: requestBody(encodeWireParts(args)),
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw await wireFailure(res);
  const body = decodeWire(new Uint8Array(await res.arrayBuffer()), ANSWER_LIMITS) as { value: T };
  return body.value;
}

/** Past this a call's body goes as a Blob of its pieces (an hour's motion file: one copy, not three). */
const BLOB_FROM_BYTES = 1 << 20;

/**
 * A big message as a Blob of its pieces: the bytes given (a motion file, maybe as parts) are copied
 * once, into the Blob, instead of into a joined message and again into the request. A small one (a
 * menu, a title) as one array, which is what DevTools and the e2e tests' request watchers can read.
 */
function requestBody(parts: Uint8Array[]): BodyInit {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  return size >= BLOB_FROM_BYTES ? new Blob(parts as BlobPart[]) : joinBytes(parts, size);
}
