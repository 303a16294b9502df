/**
 * Run-time checks of StudioApi arguments. Both backends (Electron IPC and the browser host) receive
 * arguments from a less trusted side, so every call is checked here before a service sees it;
 * a mismatch is a StudioApiError('BAD_ARGUMENT') naming the method and the field.
 */
import { StudioApiError, type StudioInvokeMethod } from './studioApi';
import { MAX_KEY, MAX_PLACEMENTS } from './bedroomSettings';

type Check = (v: unknown, at: string) => void;

const MAX_PATH = 4096;
const MAX_TEXT = 1024;

function bad(at: string, what: string): never {
  throw new StudioApiError('BAD_ARGUMENT', `${at} must be ${what}`);
}

const str =
  (max = MAX_TEXT): Check =>
  (v, at) => {
    if (typeof v !== 'string' || v.length === 0 || v.length > max) bad(at, `a non-empty string of at most ${max} characters`);
  };
const path: Check = (v, at) => {
  str(MAX_PATH)(v, at);
  if ((v as string).includes('\0')) bad(at, 'a path without NUL characters');
};
const bool: Check = (v, at) => {
  if (typeof v !== 'boolean') bad(at, 'true or false');
};
const finite: Check = (v, at) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(at, 'a finite number');
};
const int: Check = (v, at) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) bad(at, 'a non-negative integer');
};
const bytes: Check = (v, at) => {
  if (!(v instanceof Uint8Array)) bad(at, 'bytes (Uint8Array)');
};
const oneOf =
  (...values: string[]): Check =>
  (v, at) => {
    if (typeof v !== 'string' || !values.includes(v)) bad(at, `one of ${values.join(', ')}`);
  };
const optional =
  (c: Check): Check =>
  (v, at) => {
    if (v !== undefined) c(v, at);
  };
const nullable =
  (c: Check): Check =>
  (v, at) => {
    if (v !== null) c(v, at);
  };
const plainObject: Check = (v, at) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) bad(at, 'an object');
};
const shape =
  (fields: Record<string, Check>, { partial = false } = {}): Check =>
  (v, at) => {
    plainObject(v, at);
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (!(key in fields)) bad(`${at}.${key}`, 'absent (unknown field)');
    }
    for (const [key, check] of Object.entries(fields)) {
      if (partial && o[key] === undefined) continue;
      check(o[key], `${at}.${key}`);
    }
  };
const jsonValue: Check = (v, at) => {
  // View settings are opaque to the backend but must survive JSON and stay small.
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    bad(at, 'JSON-serializable');
  }
  if (text === undefined || text.length > 1_000_000) bad(at, 'JSON-serializable and under 1 MB');
};

const windowBounds = shape({ x: finite, y: finite, width: finite, height: finite, maximized: bool });
const recordOf =
  (c: Check, max: number, maxKey: number): Check =>
  (v, at) => {
    plainObject(v, at);
    const keys = Object.keys(v as object);
    if (keys.length > max) bad(at, `an object of at most ${max} entries`);
    for (const k of keys) {
      if (k.length === 0 || k.length > maxKey) bad(at, `keyed by names of 1 to ${maxKey} characters`);
      c((v as Record<string, unknown>)[k], `${at}[${JSON.stringify(k)}]`);
    }
  };
const placementOffsets = shape({ towardHead: finite, towardWall: finite, up: finite, turn: finite });
const bedroom = shape(
  {
    pose: oneOf('back', 'right', 'left'),
    sides: oneOf('right', 'both'),
    autoTurn: bool,
    autoSec: finite,
    placement: recordOf(placementOffsets, MAX_PLACEMENTS, MAX_KEY),
    poseFiles: shape({ back: optional(path), side: optional(path) }),
    sound: shape({ muted: bool, volume: finite }),
  },
  { partial: true },
);
const avatarRef: Check = (v, at) => {
  plainObject(v, at);
  const kind = (v as { kind?: unknown }).kind;
  if (kind === 'builtin') shape({ kind: oneOf('builtin'), id: str() })(v, at);
  else if (kind === 'file') shape({ kind: oneOf('file'), path })(v, at);
  else bad(`${at}.kind`, "'builtin' or 'file'");
};
const menuCommand = shape({
  id: str(200),
  label: str(200),
  menu: oneOf('file', 'edit', 'view', 'help'),
  accelerator: optional(str(100)),
  enabled: optional(bool),
  checked: optional(bool),
});
const arrayOf =
  (c: Check, max: number): Check =>
  (v, at) => {
    if (!Array.isArray(v) || v.length > max) bad(at, `an array of at most ${max} items`);
    (v as unknown[]).forEach((item, i) => c(item, `${at}[${i}]`));
  };

/** Argument checks per method, positional. */
const ARGS: Record<StudioInvokeMethod, readonly Check[]> = {
  getPlatform: [],
  openFolder: [optional(path)],
  closeFolder: [path],
  listLibrary: [],
  describeFile: [path],
  openFile: [optional(path)],
  readFile: [path],
  openDropped: [path],
  saveFile: [shape({ path, bytes })],
  saveFileAs: [shape({ bytes, suggestedName: str(255), path: optional(path), overwrite: optional(bool) })],
  exportMotion: [shape({ bytes, sourcePath: path, overwrite: optional(bool) })],
  convertFolder: [shape({ folder: path, overwrite: optional(bool) })],
  listRecent: [],
  clearRecent: [],
  autosave: [
    shape({
      avatar: avatarRef,
      motion: bytes,
      motionName: str(255),
      sourcePath: optional(path),
      undoIndex: int,
      view: (v, at) => {
        plainObject(v, at);
        jsonValue(v, at);
      },
    }),
  ],
  clearAutosave: [],
  checkRecovery: [],
  getSettings: [],
  setSettings: [
    shape(
      {
        windowBounds: nullable(windowBounds),
        falloffRadius: finite,
        bedroom,
        lastFolder: nullable(path),
        language: oneOf('system', 'en', 'ja'),
      },
      { partial: true },
    ),
  ],
  setCommands: [arrayOf(menuCommand, 500)],
  setDocumentState: [shape({ title: str(500), dirty: bool, path: optional(path) })],
  takeLaunchRequests: [],
};

export function isInvokeMethod(name: string): name is StudioInvokeMethod {
  return Object.prototype.hasOwnProperty.call(ARGS, name);
}

/** Throws StudioApiError('BAD_ARGUMENT') unless `args` fit `method`. */
export function validateArgs(method: StudioInvokeMethod, args: readonly unknown[]): void {
  const checks = ARGS[method];
  if (!Array.isArray(args)) bad(method, 'called with an argument list');
  // Trailing undefined (optional arguments) may be dropped or sent; anything beyond is refused.
  let n = args.length;
  while (n > checks.length && args[n - 1] === undefined) n--;
  if (n > checks.length) bad(method, `called with at most ${checks.length} argument(s)`);
  checks.forEach((check, i) => check(args[i], `${method} argument ${i + 1}`));
}
