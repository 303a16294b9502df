/**
 * The one table of file formats the studio knows. Every list of extensions (the library, the file
 * access checks, the open and drop paths, the CLI's convert and Convert Folder, the prose that names
 * the formats) is derived from FORMATS, so a format added here is picked up everywhere at once.
 *
 * This module holds the light half (names, extensions, sniffs, kinds): the studio's first chunk reads
 * it, so it imports no reader. The heavy half, each format's reader, take lister, `describe` and
 * (for the exporters) writer, is CODECS in shared/formats/codecs.ts, keyed by the same ids and typed so
 * that a format without its codec does not compile. Adding a format: one entry here, one there.
 *
 * An extension may belong to several formats (.glb: a VRM avatar, or a glTF of animations): openers
 * try the avatar first (isAvatarFile), batch conversions skip a .glb that is an avatar without animations.
 */

/** What a format's files are: motions (or one-frame poses), MMD models, avatars, videos (captured into a motion). */
export type FormatKind = 'motion' | 'pose' | 'model' | 'avatar' | 'video';

export interface FormatSpec {
  /** Key of the format in CODECS (shared/formats/codecs.ts). */
  readonly id: string;
  /** Its name in prose: "BVH motion capture". */
  readonly title: string;
  /** Lower case, with the dot; the first is the one names are written with. */
  readonly extensions: readonly string[];
  /** What its files can be. */
  readonly kinds: readonly FormatKind[];
  /** Converted to .vrma on open, by the CLI's convert and Convert Folder. */
  readonly converts: boolean;
  /** Its files may hold several motions ("takes": FBX animation stacks, glTF animations). */
  readonly takes: boolean;
  /** Converted better with the format of this id beside it (an MMD motion with its .pmx/.pmd model). */
  readonly needsModel?: string;
  /** Whether the first bytes (at most SNIFF_BYTES) look like this format; never stricter than its reader. */
  sniff(head: Uint8Array): boolean;
  /**
   * The library's reason for a file whose first bytes the sniff refuses, for formats whose reader
   * would only say something vaguer; formats without it go straight to their reader.
   */
  readonly headerError?: string;
}

/** How many leading bytes a sniff reads. */
export const SNIFF_BYTES = 64;

const ascii = (head: Uint8Array, from = 0, to = head.length) => String.fromCharCode(...head.subarray(from, Math.min(to, head.length)));
/** The head as text without a byte-order mark or leading blanks (BVH, VPD, ASCII FBX and glTF JSON may have either). */
const text = (head: Uint8Array) => new TextDecoder().decode(head.subarray(0, SNIFF_BYTES)).replace(/^\ufeff/, '').trimStart();
const isGlbHead = (head: Uint8Array) => ascii(head, 0, 4) === 'glTF';
/** ISO media (MP4, QuickTime .mov) opens with a box whose type is at bytes 4..8; WebM (Matroska) with the EBML magic. */
const isVideoHead = (head: Uint8Array) =>
  ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(head, 4, 8)) || (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3);

export const FORMATS = [
  { id: 'vrma', title: 'VRM Animation', extensions: ['.vrma'], kinds: ['motion', 'pose'], converts: false, takes: false, sniff: isGlbHead },
  { id: 'vmd', title: 'MMD motion', extensions: ['.vmd'], kinds: ['motion', 'pose'], converts: true, takes: false, needsModel: 'mmdModel', sniff: (h) => ascii(h, 0, 20) === 'Vocaloid Motion Data' },
  { id: 'vpd', title: 'MMD pose', extensions: ['.vpd'], kinds: ['pose'], converts: true, takes: false, needsModel: 'mmdModel', sniff: (h) => text(h).startsWith('Vocaloid Pose Data file') },
  { id: 'bvh', title: 'BVH motion capture', extensions: ['.bvh'], kinds: ['motion', 'pose'], converts: true, takes: false, sniff: (h) => /^HIERARCHY\b/i.test(text(h)) },
  // ASCII FBX opens with comments (; FBX 7.4.0 project file) or straight with FBXHeaderExtension.
  {
    id: 'fbx',
    title: 'FBX animation',
    extensions: ['.fbx'],
    kinds: ['motion', 'pose'],
    converts: true,
    takes: true,
    sniff: (h) => ascii(h, 0, 18) === 'Kaydara FBX Binary' || /^(;|FBXHeaderExtension)/.test(text(h)),
  },
  { id: 'gltf', title: 'glTF animation', extensions: ['.glb', '.gltf'], kinds: ['motion', 'pose'], converts: true, takes: true, sniff: (h) => isGlbHead(h) || text(h).startsWith('{') },
  { id: 'vrm', title: 'VRM avatar', extensions: ['.vrm', '.glb'], kinds: ['avatar'], converts: false, takes: false, sniff: isGlbHead },
  // Videos are not converted but captured (pose estimation in the studio's page: shared/capture).
  { id: 'video', title: 'Video', extensions: ['.mp4', '.webm', '.mov'], kinds: ['video'], converts: false, takes: false, sniff: isVideoHead },
  {
    id: 'mmdModel',
    title: 'MMD model',
    extensions: ['.pmx', '.pmd'],
    kinds: ['model'],
    converts: false,
    takes: false,
    headerError: 'not a PMX or PMD model (bad header)',
    sniff: (h) => ascii(h, 0, 4) === 'PMX ' || ascii(h, 0, 3) === 'Pmd',
  },
] as const satisfies readonly FormatSpec[];

export type FormatId = (typeof FORMATS)[number]['id'];
export type Format = (typeof FORMATS)[number];

function extensionsWhere(test: (f: FormatSpec) => boolean): string[] {
  return [...new Set(FORMATS.filter(test).flatMap((f) => f.extensions))];
}

/** The studio's own motion format: what every conversion writes. */
export const VRMA_EXTENSION = '.vrma';

/** Motion formats converted to .vrma (by the studio on open, the CLI's convert and Convert Folder). */
export const CONVERTIBLE_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.converts);

/** Everything that opens as a motion: .vrma itself and every convertible format. */
export const MOTION_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.kinds.includes('motion') || f.kinds.includes('pose'));

/** Avatars: VRM 1.0 / 0.x files, also when they are named .glb. */
export const AVATAR_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.kinds.includes('avatar'));

/**
 * MMD models: not motions themselves, but the skeleton (bone rest positions) a .vmd/.vpd of the same
 * folder was made for. The studio converts MMD files of a model's folder with it; the CLI takes --pmx.
 */
export const MMD_MODEL_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.kinds.includes('model'));

/** MMD motion and pose files, converted with their folder's model when there is one. */
export const MMD_MOTION_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.needsModel === 'mmdModel');

/** Videos a motion is captured from (the studio's Open and drop, the CLI's capture). */
export const VIDEO_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.kinds.includes('video'));

/** Extensions whose files may hold several motions ("takes": FBX animation stacks, glTF animations). */
export const TAKE_EXTENSIONS: readonly string[] = extensionsWhere((f) => f.takes);

/** Every extension of the table once: what the library lists and the studio opens. */
export type StudioFileExtension = Format['extensions'][number];
export const STUDIO_FILE_EXTENSIONS = extensionsWhere(() => true) as readonly StudioFileExtension[];

/** The extension of a file name or path, lower case with the dot; '' when it has none (".hidden" has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** The formats a file name may be, in the table's order. */
export function formatsOf(fileName: string): Format[] {
  const ext = extensionOf(fileName);
  return FORMATS.filter((f) => (f.extensions as readonly string[]).includes(ext));
}

/**
 * The one format whose reader a file goes through: the motion format of its extension when there is
 * one (a .glb is read as glTF, which tells avatars from animations itself), else the only one.
 */
export function formatOf(fileName: string): Format | undefined {
  const all = formatsOf(fileName);
  return all.find((f) => (f.kinds as readonly FormatKind[]).includes('motion')) ?? all[0];
}

/** The formats whose sniff accepts these first bytes (several for a GLB: VRMA, glTF and VRM share its header). */
export function sniffFormats(head: Uint8Array): FormatId[] {
  return FORMATS.filter((f) => f.sniff(head.subarray(0, SNIFF_BYTES))).map((f) => f.id);
}

/** The name a format goes by in notes ("converted from FBX"): the file's own extension, upper case. */
export function formatLabel(fileName: string): string {
  return extensionOf(fileName).slice(1).toUpperCase();
}

const has = (list: readonly string[], fileName: string) => list.includes(extensionOf(fileName));

/** A motion to convert to .vrma (not .vrma itself). */
export const isConvertible = (fileName: string): boolean => has(CONVERTIBLE_EXTENSIONS, fileName);
/** Opens as a motion (.vrma or convertible). */
export const isMotionFile = (fileName: string): boolean => has(MOTION_EXTENSIONS, fileName);
export const isAvatarFile = (fileName: string): boolean => has(AVATAR_EXTENSIONS, fileName);
export const isMmdModelFile = (fileName: string): boolean => has(MMD_MODEL_EXTENSIONS, fileName);
export const isMmdMotionFile = (fileName: string): boolean => has(MMD_MOTION_EXTENSIONS, fileName);
export const isVideoFile = (fileName: string): boolean => has(VIDEO_EXTENSIONS, fileName);
/** A file that may hold several takes (shared/formats/takes.ts lists and converts them). */
export const hasTakes = (fileName: string): boolean => has(TAKE_EXTENSIONS, fileName);

/** The studio file extension of a name, or null when the studio does not open it. */
export function studioExtensionOf(fileName: string): StudioFileExtension | null {
  const ext = extensionOf(fileName);
  return (STUDIO_FILE_EXTENSIONS as readonly string[]).includes(ext) ? (ext as StudioFileExtension) : null;
}

/** The `accept` attribute of a file input for these extensions. */
export function acceptAttribute(extensions: readonly string[]): string {
  return extensions.join(',');
}

/** "a, b or c", for English messages that list the formats (the CLI; the studio's catalogue lists them itself). */
export function formatList(extensions: readonly string[]): string {
  return extensions.length <= 1 ? extensions.join('') : `${extensions.slice(0, -1).join(', ')} or ${extensions[extensions.length - 1]}`;
}

/** The README's table of formats (checked against the README by tests/unit/convert/formatTable.test.ts). */
export function formatTableMarkdown(): string {
  const yes = (b: boolean) => (b ? 'yes' : '');
  const code = (exts: readonly string[]) => exts.map((e) => `\`${e}\``).join(' ');
  const model = (f: FormatSpec) => FORMATS.find((m) => m.id === f.needsModel);
  const beside = (f: FormatSpec) => (model(f) ? `the ${model(f)!.title} beside it (${code(model(f)!.extensions)})` : '');
  const rows = FORMATS.map((f) => `| ${f.title} | ${code(f.extensions)} | ${f.kinds.join(', ')} | ${yes(f.converts)} | ${yes(f.takes)} | ${beside(f)} |`);
  return ['| format | extensions | files are | converted to .vrma | takes | converted with |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
