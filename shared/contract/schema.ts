/**
 * The one schema of every value a StudioApi call carries (valibot): the request types in studioApi.ts are
 * inferred from it, invokeSchema.ts lists each method's arguments with it, and validate.ts runs it, once at each boundary (main/electron/ipcCall.ts for IPC,
 * main/host/server.ts for HTTP). Adding a field here changes both the type and the check.
 *
 * Messages are written to read after "<method> argument N.<field> must be ...". Pure TypeScript
 * (valibot has no Node or DOM dependency), so shared/ stays importable everywhere.
 */
import * as v from 'valibot';
import { MAX_KEY, MAX_PLACEMENTS, type BedroomSettings } from './bedroomSettings';
import { EXPORT_FORMATS } from '../export/exportFormats';
import type { DeepReadonly, Infer, SameType } from './infer';

export const MAX_PATH = 4096;
export const MAX_TEXT = 1024;
/** Opaque view settings of an autosave: JSON, under 1 MB. */
export const MAX_VIEW_JSON = 1_000_000;

const text = (max = MAX_TEXT) =>
  v.pipe(
    v.string(`a non-empty string of at most ${max} characters`),
    v.minLength(1, `a non-empty string of at most ${max} characters`),
    v.maxLength(max, `a non-empty string of at most ${max} characters`),
  );
export const PathSchema = v.pipe(
  text(MAX_PATH),
  v.check((s) => !s.includes('\0'), 'a path without NUL characters'),
);
const bool = v.boolean('true or false');
const finite = v.pipe(v.number('a finite number'), v.finite('a finite number'));
export const CountSchema = v.pipe(v.number('a non-negative integer'), v.integer('a non-negative integer'), v.minValue(0, 'a non-negative integer'));
// custom, not instance(): instance() would narrow the type to Uint8Array<ArrayBuffer>.
const bytes = v.custom<Uint8Array>((x) => x instanceof Uint8Array, 'bytes (Uint8Array)');
export const LANGUAGE_SETTINGS = ['system', 'en', 'ja'] as const;

const oneOf = <const T extends readonly string[]>(...values: T) => v.picklist(values, `one of ${values.join(', ')}`);
/** Every field name of the schema's objects: error paths write other keys (record keys) as ["key"]. */
export const FIELD_NAMES = new Set<string>();
/** A plain object with exactly these fields (unknown fields are refused, not dropped). */
const shape = <const E extends v.ObjectEntries>(entries: E) => {
  for (const k of Object.keys(entries)) FIELD_NAMES.add(k);
  return v.strictObject(entries, (issue) => (issue.expected === 'never' ? 'absent (unknown field)' : 'an object'));
};

export const WindowBoundsSchema = shape({ x: finite, y: finite, width: finite, height: finite, maximized: bool });

const placementOffsets = shape({ towardHead: finite, towardWall: finite, up: finite, turn: finite });
/** Placement offsets per avatar: at most MAX_PLACEMENTS entries keyed by names of 1..MAX_KEY characters. */
const placements = v.pipe(
  v.record(
    v.pipe(v.string(), v.minLength(1, `keyed by names of 1 to ${MAX_KEY} characters`), v.maxLength(MAX_KEY, `keyed by names of 1 to ${MAX_KEY} characters`)),
    placementOffsets,
    'an object',
  ),
  v.check((o) => Object.keys(o).length <= MAX_PLACEMENTS, `an object of at most ${MAX_PLACEMENTS} entries`),
);

/**
 * A patch of the bedroom settings (every field optional). The settings type itself and its sanitizer
 * live in bedroomSettings.ts; BedroomPatchMatches below keeps this schema and that type in step.
 */
export const BedroomPatchSchema = v.partial(
  shape({
    pose: oneOf('back', 'right', 'left'),
    sides: oneOf('right', 'both'),
    autoTurn: bool,
    autoSec: finite,
    placement: placements,
    poseFiles: shape({ back: v.optional(PathSchema), side: v.optional(PathSchema) }),
    sound: shape({ muted: bool, volume: finite }),
  }),
);

/** What setSettings may send: settings.ts checks at compile time that it names exactly the stored settings' fields. */
export const SettingsPatchSchema = v.partial(
  shape({
    windowBounds: v.nullable(WindowBoundsSchema),
    falloffRadius: finite,
    autoKey: bool,
    bedroom: BedroomPatchSchema,
    lastFolder: v.nullable(PathSchema),
    /** UI language: 'system' follows the OS / browser, else the user's choice. */
    language: oneOf(...LANGUAGE_SETTINGS),
    onionSkin: v.partial(shape({ enabled: bool, seconds: finite })),
    exportFormat: oneOf(...EXPORT_FORMATS),
    exportSmallerFile: bool,
    capture: v.partial(shape({ hands: bool, face: bool })),
    panels: v.partial(shape({ left: v.nullable(finite), right: v.nullable(finite), dopeSheet: v.nullable(finite) })),
  }),
);

export const AvatarRefSchema = v.variant(
  'kind',
  [shape({ kind: v.literal('builtin'), id: text() }), shape({ kind: v.literal('file'), path: PathSchema })],
  "'builtin' or 'file'",
);

const viewJson = v.pipe(
  v.record(v.string(), v.unknown(), 'an object'),
  v.check((o) => !Array.isArray(o), 'an object'),
  v.check((o) => {
    // View settings are opaque to the backend but must survive JSON and stay small.
    try {
      const t = JSON.stringify(o);
      return t !== undefined && t.length <= MAX_VIEW_JSON;
    } catch {
      return false;
    }
  }, 'JSON-serializable and under 1 MB'),
);

export const AutosaveSessionSchema = shape({
  avatar: AvatarRefSchema,
  /** The current motion as written by writeVrma. */
  motion: bytes,
  motionName: text(255),
  /** File the motion came from (for export naming), if any. */
  sourcePath: v.optional(PathSchema),
  /** Position in the undo history when saved (entries before it are undoable). */
  undoIndex: CountSchema,
  /** View settings (time, range, selection, camera...): JSON-serializable, owned by the renderer. */
  view: viewJson,
});

export const SaveRequestSchema = shape({
  /** An existing, writable path the user opened (or saved to) earlier: Save overwrites it atomically. */
  path: PathSchema,
  bytes,
});

export const SaveAsRequestSchema = shape({
  bytes,
  /** File name offered in the dialog, e.g. "walk.vrma". */
  suggestedName: text(255),
  /**
   * Browser host (no dialog): the chosen target path; it must sit inside an opened folder or beside an
   * opened file. Electron ignores it and shows the save dialog.
   */
  path: v.optional(PathSchema),
  /** Replace an existing target (the native dialog asks the user itself). */
  overwrite: v.optional(bool),
});

/**
 * `take`: the document is one take of an .fbx/.glb: it exports as NAME.TAKE.vrma, the name the CLI and
 * Convert Folder give it. `format`: the bytes are that format (shared/export), written as NAME.FORMAT.
 */
export const ExportRequestSchema = shape({ bytes, sourcePath: PathSchema, overwrite: v.optional(bool), take: v.optional(text(255)), format: v.optional(oneOf('vrma', 'vmd', 'bvh', 'glb', 'fbx')) });

/** Takes one file may become without the user's say-so (Convert Folder's allTakes, the CLI's --all-takes). */
export const MAX_TAKES_WITHOUT_ASKING = 50;

export const ConvertFolderRequestSchema = shape({
  folder: PathSchema,
  /** Reconvert files whose .vrma already exists (default: skip them). */
  overwrite: v.optional(bool),
  /**
   * Files with more than 50 takes: true writes every take, false leaves those files out; absent, the
   * call is refused with 'CONFIRM' so the page asks the user first.
   */
  allTakes: v.optional(bool),
});

/** Options of openFolder/openFile with a typed path (browser host). */
export const OpenOptionsSchema = shape({
  /** The user confirmed opening a path outside the home folder or a system folder (the page asked). */
  confirmed: v.optional(bool),
});

export const MenuCommandSchema = shape({
  /** Stable id sent back by onCommand, e.g. "file.export", "edit.undo". */
  id: text(200),
  label: text(200),
  /** Top-level menu it belongs to. */
  menu: oneOf('file', 'edit', 'view', 'help'),
  /** Electron accelerator syntax, e.g. "CmdOrCtrl+Z". */
  accelerator: v.optional(text(100)),
  enabled: v.optional(bool),
  checked: v.optional(bool),
});

export const DocumentStateSchema = shape({
  /** Shown in the window title. */
  title: text(500),
  dirty: bool,
  /** The document's file, handed to the OS (macOS represented file). */
  path: v.optional(PathSchema),
});

/** The page's answer to a closeRequest (main/services/closeGuard.ts): 'shown' first, then 'close' or 'cancel'. */
export const CloseAnswerSchema = oneOf('shown', 'close', 'cancel');

export type { DeepReadonly, Infer } from './infer';

// Compile-time: the bedroom patch the schema accepts is exactly a partial BedroomSettings.
const bedroomPatchMatches: SameType<Infer<typeof BedroomPatchSchema>, DeepReadonly<Partial<BedroomSettings>>> = true;
void bedroomPatchMatches;

/**
 * The largest file sent in pieces: the browser host's largest motion body (main/host/apiRoutes.ts
 * MAX_MOTION_BODY_BYTES); a 60-minute, 120 fps .vrma is 413 MB. Main holds at most two such uploads.
 */
export const MAX_PIECES_TOTAL = 512 * 1024 * 1024;

/**
 * One piece of a large byte block sent ahead of the call that names it (Electron: shared/contract/pieces.ts).
 * `upload` is the page's number for the block; pieces come in order (`offset` = bytes sent so far);
 * a piece with `total` 0 forgets the upload (a cancelled Save).
 */
export const PieceSchema = shape({
  upload: CountSchema,
  offset: CountSchema,
  total: v.pipe(CountSchema, v.maxValue(MAX_PIECES_TOTAL, `at most ${MAX_PIECES_TOTAL}`)),
  bytes,
});
