/**
 * The one error type the motion core throws for bad input. Callers (UI, CLI, host) show `message`
 * and branch on `code`; anything else escaping the core is a bug.
 *
 * Every throw site names a `detail`: a key of the catalogue's `errorDetail.*` messages
 * (shared/i18n/messages/errors.ts) with `params` (line, bone, node, accessor, expected/actual ...), and
 * no English of its own: one wording per error. The studio words it in the user's language with the
 * real values; `message` is the same words in the catalogue's English (what the CLI, which stays
 * English, and logs print). tests/unit/i18n/errorDetails.test.ts finds every throw site and fails when
 * one passes no detail or a detail missing in either language.
 */
import type { MessageKey } from './i18n/catalogue';
import { translate } from './i18n/translate';

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

const en = (key: string, values?: ErrorParams) => translate(key, values, undefined, 'en');

/** A detail alone in the catalogue's English, with its values ("line 12: frame 11 has 5 numbers ..."). */
export function englishDetailText(detail: ErrorDetail, params: ErrorParams = {}): string {
  return en(`errorDetail.${detail}`, params);
}

/** The catalogue's English for an error: the code's plain words, then the detail, as the studio shows it in English. */
export function englishErrorText(code: MotionErrorCode, detail: ErrorDetail, params: ErrorParams = {}): string {
  return en('errors.withDetail', { problem: en(`error.${code}`), detail: englishDetailText(detail, params) });
}

export class MotionError extends Error {
  readonly code: MotionErrorCode;
  /** What exactly is wrong, as a catalogue detail (undefined only for an error rebuilt from data that had none). */
  readonly detail: ErrorDetail | undefined;
  readonly params: ErrorParams;
  /**
   * `unworded` is only for an error rebuilt from plain data that arrived without a detail (a worker's or
   * the host's reply): its message as it came. Throw sites always pass a detail.
   */
  constructor(code: MotionErrorCode, detail: ErrorDetail | undefined, params: ErrorParams = {}, unworded?: string) {
    super(detail === undefined ? (unworded ?? en(`error.${code}`)) : englishErrorText(code, detail, params));
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

/** Throws the MotionError for bad input: its code and catalogue detail, with the values the detail shows. */
export function fail(code: MotionErrorCode, detail: ErrorDetail, params?: ErrorParams): never {
  throw new MotionError(code, detail, params);
}
