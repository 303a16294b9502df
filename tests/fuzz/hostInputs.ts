/**
 * fast-check targets for what a hostile local client can send the browser host (issue 16):
 *  - the wire decoder (shared/contract/wire.ts): random bytes, damaged valid messages, block tables
 *    and JSON that lie about their sizes. Every input decodes or throws WireError, nothing else, and
 *    a decoded message re-encodes to one that decodes to the same value.
 *  - every route's argument validation (shared/contract/schema.ts via validateArgs): for each invoke
 *    method, a valid argument list damaged field by field (values swapped for hostile ones, fields
 *    dropped or added, extra arguments). Every list validates or throws BAD_ARGUMENT naming the method,
 *    and a list that validates validates again unchanged.
 * Used by tests/security/fuzzHost.test.ts (a few thousand cases in npm test) and tests/fuzz/run.ts.
 */
import fc from 'fast-check';
import { decodeWire, encodeWire, WireError } from '../../shared/contract/wire';
import { StudioApiError, STUDIO_INVOKE_METHODS, type StudioInvokeMethod } from '../../shared/contract/studioApi';
import { validateArgs } from '../../shared/contract/validate';

// ---------------------------------------------------------------- wire decoder

const MAGIC = [0x56, 0x52, 0x57, 0x31];

/** A valid message of small JSON-like values with byte arrays. */
const wireValue = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 32 }),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== '__bytes__' && k !== '__proto__'), tie('node'), { maxKeys: 4 }),
  ),
})).node;

const u32 = fc.oneof(fc.constantFrom(0, 1, 3, 4, 7, 8, 0x7fffffff, 0x80000000, 0xffffffff, 4 * 1024 * 1024, 4 * 1024 * 1024 + 1), fc.nat());

/** Hostile messages: random bytes, valid ones damaged, lying length fields, many blocks, bad references. */
export const wireInput: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.uint8Array({ maxLength: 60 }).map((b) => Uint8Array.from([...MAGIC, ...b])),
  fc.tuple(wireValue, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([v, at, byte]) => {
    const m = encodeWire(v).slice();
    if (m.length) m[at % m.length] = byte;
    return m;
  }),
  fc.tuple(wireValue, fc.nat()).map(([v, cut]) => {
    const m = encodeWire(v);
    return m.subarray(0, cut % (m.length + 1));
  }),
  fc.tuple(wireValue, u32, fc.nat()).map(([v, value, where]) => {
    // Overwrite one 32-bit field (the JSON length, or a block length) with a lie.
    const m = encodeWire(v).slice();
    const dv = new DataView(m.buffer);
    const at = m.length >= 8 ? (where % 2 === 0 ? 4 : Math.min(m.length - 4, 8 + 4 * (where % Math.max(1, (m.length - 8) >> 2)))) : 0;
    if (m.length >= at + 4) dv.setUint32(at, value, true);
    return m;
  }),
  fc.tuple(
    fc.constantFrom('[]', '{"__bytes__":0}', '[{"__bytes__":0},{"__bytes__":0}]', '[{"__bytes__":-1}]', '[{"__bytes__":1.5}]', '[{"__bytes__":"0"}]', '{"__bytes__":0,"x":1}', '[', '\uD800'),
    fc.nat({ max: 5000 }),
  ).map(([json, blocks]) => {
    const j = new TextEncoder().encode(json);
    const pad = (j.length + 3) & ~3;
    const m = new Uint8Array(8 + pad + blocks * 4);
    const dv = new DataView(m.buffer);
    m.set(MAGIC);
    dv.setUint32(4, j.length, true);
    m.set(j, 8);
    return m;
  }),
);

export type WireOutcome = 'decoded' | 'rejected';

/** Decodes one input; throws (failing the property) on anything but a value or a WireError. */
export function checkWire(bytes: Uint8Array): WireOutcome {
  let value: unknown;
  try {
    value = decodeWire(bytes);
  } catch (e) {
    if (e instanceof WireError) return 'rejected';
    throw new Error(`decodeWire threw ${(e as Error)?.name}: ${(e as Error)?.message} for ${bytes.length} bytes`);
  }
  const again = decodeWire(encodeWire(value));
  if (JSON.stringify(again, bytesAsList) !== JSON.stringify(value, bytesAsList)) throw new Error('a decoded message does not survive re-encoding');
  return 'decoded';
}

function bytesAsList(_k: string, v: unknown): unknown {
  return v instanceof Uint8Array ? { bytes: [...v] } : v;
}

// ---------------------------------------------------------------- argument validation

const bytes = new Uint8Array([0x67, 0x6c, 0x54, 0x46]);
/** One valid argument list per method: the damage starts from something the schema accepts. */
export const VALID_ARGS: Record<StudioInvokeMethod, unknown[]> = {
  getPlatform: [],
  openFolder: ['/home/u/motions', { confirmed: true }],
  closeFolder: ['/home/u/motions'],
  listLibrary: [],
  describeFile: ['/home/u/motions/walk.vmd'],
  openFile: ['/home/u/motions/walk.vmd'],
  readFile: ['/home/u/motions/walk.vmd'],
  findMmdModel: ['/home/u/motions/walk.vmd'],
  openDropped: ['/home/u/Desktop/walk.vmd'],
  saveFile: [{ path: '/home/u/motions/walk.vrma', bytes }],
  saveFileAs: [{ bytes, suggestedName: 'walk.vrma', path: '/home/u/motions/walk.vrma', overwrite: false }],
  exportMotion: [{ bytes, sourcePath: '/home/u/motions/walk.vmd', overwrite: true }],
  convertFolder: [{ folder: '/home/u/motions', overwrite: false }],
  listRecent: [],
  clearRecent: [],
  autosave: [{ avatar: { kind: 'file', path: '/home/u/a.vrm' }, motion: bytes, motionName: 'walk', sourcePath: '/home/u/motions/walk.vmd', undoIndex: 3, view: { time: 1.5, camera: [0, 1, 2] } }],
  clearAutosave: [],
  checkRecovery: [],
  getSettings: [],
  setSettings: [{
    windowBounds: { x: 0, y: 0, width: 800, height: 600, maximized: false },
    falloffRadius: 0.4,
    lastFolder: null,
    language: 'ja',
    onionSkin: { enabled: true, seconds: 0.2 },
    bedroom: {
      pose: 'left',
      sides: 'both',
      autoTurn: true,
      autoSec: 60,
      placement: { Alicia: { towardHead: 0.1, towardWall: 0, up: 0, turn: 15 } },
      poseFiles: { back: '/home/u/p.vpd' },
      sound: { muted: false, volume: 0.5 },
    },
  }],
  setCommands: [[{ id: 'file.export', label: 'Export', menu: 'file', accelerator: 'CmdOrCtrl+E', enabled: true, checked: false }]],
  setDocumentState: [{ title: 'walk.vmd', dirty: true, path: '/home/u/motions/walk.vmd' }],
  takeLaunchRequests: [],
  answerClose: [1, 'cancel'],
};

/** Values a hostile client would try in any slot. */
const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    '',
    '\0',
    '/a\0b',
    'relative/path',
    '../..',
    'x'.repeat(5000),
    -1,
    0,
    1.5,
    NaN,
    Infinity,
    -0,
    2 ** 53,
    true,
    false,
    [],
    {},
    [[]],
    { __proto__: { polluted: true } },
    { constructor: 1 },
    new Uint8Array(0),
    'file',
    'builtin',
    'window',
    'side',
  ),
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.uint8Array({ maxLength: 8 }),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

type Path = (string | number)[];

function leafPaths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (v instanceof Uint8Array || v === null || typeof v !== 'object') return out;
  for (const [k, child] of Object.entries(v)) leafPaths(child, [...at, Array.isArray(v) ? Number(k) : k], out);
  return out;
}

function clone(v: unknown): unknown {
  if (v instanceof Uint8Array) return v.slice();
  if (Array.isArray(v)) return v.map(clone);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}

type Damage = { kind: 'set'; path: number; value: unknown } | { kind: 'delete'; path: number } | { kind: 'add'; path: number; key: string; value: unknown } | { kind: 'extra'; value: unknown };

function applyDamage(args: unknown[], d: Damage): unknown[] {
  const out = clone(args) as unknown[];
  if (d.kind === 'extra') return [...out, d.value];
  const paths = leafPaths(out).slice(1); // not the list itself
  if (!paths.length) return d.kind === 'delete' ? out : [d.kind === 'set' ? d.value : d.value];
  const path = paths[d.path % paths.length];
  let parent: unknown = out;
  for (const k of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[k];
  const last = path[path.length - 1];
  const obj = parent as Record<string | number, unknown>;
  if (d.kind === 'set') obj[last] = d.value;
  else if (d.kind === 'delete') {
    if (Array.isArray(obj)) obj.splice(Number(last), 1);
    else delete obj[last];
  } else {
    // Own properties, as JSON.parse and structured clone make them ("__proto__" is a key, not the prototype).
    const own = (o: object) => Object.defineProperty(o, d.key, { value: d.value, enumerable: true, writable: true, configurable: true });
    const target = obj[last];
    if (target && typeof target === 'object' && !(target instanceof Uint8Array) && !Array.isArray(target)) own(target);
    else obj[last] = own({});
  }
  return out;
}

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), path: fc.nat(), value: hostile }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), path: fc.nat(), key: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'evil', 'path')), value: hostile }),
  fc.record({ kind: fc.constant('extra' as const), value: hostile }),
);

export interface ArgsInput {
  readonly method: StudioInvokeMethod;
  readonly args: unknown[];
  readonly damage: readonly Damage[];
}

/** A method and its valid argument list with 0-3 kinds of damage (0: the list must validate). */
export const argsInput: fc.Arbitrary<ArgsInput> = fc
  .tuple(fc.constantFrom(...STUDIO_INVOKE_METHODS), fc.array(damage, { maxLength: 3 }))
  .map(([method, ds]) => ({ method, damage: ds, args: ds.reduce((a, d) => applyDamage(a, d), VALID_ARGS[method]) }));

export type ArgsOutcome = 'accepted' | 'refused';

/** Validates one list; throws (failing the property) unless it validates or is refused properly. */
export function checkArgs(input: ArgsInput): ArgsOutcome {
  let out: unknown;
  try {
    out = validateArgs(input.method, input.args);
  } catch (e) {
    if (e instanceof StudioApiError && e.code === 'BAD_ARGUMENT' && e.message.startsWith(input.method)) return 'refused';
    throw new Error(`validateArgs(${input.method}) threw ${(e as Error)?.name} ${(e as StudioApiError)?.code ?? ''}: ${(e as Error)?.message}`);
  }
  if (input.damage.length === 0 && !Array.isArray(out)) throw new Error(`${input.method}: the valid list did not validate to a list`);
  // What passed once passes again, unchanged (no coercion that a second boundary would see differently).
  const again = validateArgs(input.method, out as unknown[]);
  if (JSON.stringify(again, bytesAsList) !== JSON.stringify(out, bytesAsList)) throw new Error(`${input.method}: validating twice changed the arguments`);
  return 'accepted';
}
