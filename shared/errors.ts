/**
 * The one error type the motion core throws for bad input. Callers (UI, CLI, host) show `message`
 * and branch on `code`; anything else escaping the core is a bug.
 *
 * Besides the English `message` (what the CLI prints, unchanged), every throw site names a `detail`:
 * a key of the catalogue's `errorDetail.*` messages (shared/i18n/messages/errors.ts) with `params`
 * (line, bone, node, accessor, expected/actual ...), so the studio words the same problem in the
 * user's language with the real values. tests/unit/i18n/errorDetails.test.ts finds every throw site
 * and fails when one passes no detail or a detail missing in either language.
 */
import type { MessageKey } from './i18n/catalogue';

export type MotionErrorCode =
  | 'NOT_GLB'
  | 'TRUNCATED'
  | 'BAD_CHUNK'
  | 'BAD_JSON'
  | 'NOT_VRMA'
  | 'BAD_ACCESSOR'
  | 'OUT_OF_BOUNDS'
  | 'TOO_LARGE'
  | 'BAD_DATA'
  | 'UNSUPPORTED'
  | 'BAD_PARAMETER'
  | 'BAD_BVH'
  | 'BAD_VMD'
  | 'BAD_VPD'
  | 'BAD_PMX'
  | 'BAD_FBX'
  | 'BAD_GLTF'
  | 'NO_KEYS'
  | 'IS_AVATAR'
  | 'NO_HUMANOID';

/** A detail of the catalogue: `errorDetail.<detail>` (a type error when the English catalogue lacks it). */
export type ErrorDetail = MessageKey extends infer K ? (K extends `errorDetail.${infer D}` ? D : never) : never;

/** The values a detail's message shows: numbers are formatted in the user's language. */
export type ErrorParams = Readonly<Record<string, string | number>>;

export class MotionError extends Error {
  readonly code: MotionErrorCode;
  /** What exactly is wrong, as a catalogue detail (undefined only for a throw site not yet worded). */
  readonly detail: ErrorDetail | undefined;
  readonly params: ErrorParams;
  constructor(code: MotionErrorCode, message: string, detail?: ErrorDetail, params: ErrorParams = {}) {
    super(message);
    this.name = 'MotionError';
    this.code = code;
    this.detail = detail;
    this.params = params;
  }
}

/**
 * A MotionError as plain data, for where errors cross IPC, HTTP or a worker thread as results (a
 * folder conversion's failures, a library file's details): enough for the studio to word it.
 */
export interface MotionErrorInfo {
  readonly code: MotionErrorCode;
  readonly detail?: ErrorDetail;
  readonly params?: ErrorParams;
}

/** The plain-data form of a MotionError; undefined for anything else (a bug, a file system error). */
export function motionErrorInfo(e: unknown): MotionErrorInfo | undefined {
  if (!(e instanceof MotionError)) return undefined;
  return e.detail === undefined ? { code: e.code } : { code: e.code, detail: e.detail, params: { ...e.params } };
}

export function fail(code: MotionErrorCode, message: string, detail?: ErrorDetail, params?: ErrorParams): never {
  throw new MotionError(code, message, detail, params);
}
