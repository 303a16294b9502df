/**
 * The one list of file types the studio knows, by extension (lower case, with the dot). The library,
 * the file access checks, the open and drop paths, the CLI's convert and Convert Folder all read these,
 * so a format added here is picked up everywhere at once.
 *
 * Adding a motion format: put its extension in CONVERTIBLE_EXTENSIONS and handle it in convertToMotion
 * (shared/convert/index.ts). An extension may be both an avatar and a motion container (.glb): openers
 * try it as an avatar first (isAvatarFile); batch conversions skip a .glb that is a VRM avatar with no
 * animations. FBX and glTF files may hold several takes (shared/convert/takes.ts).
 */

/** The studio's own motion format: what every conversion writes. */
export const VRMA_EXTENSION = '.vrma';

/** Motion formats converted to .vrma (by the studio on open, the CLI's convert and Convert Folder). */
export const CONVERTIBLE_EXTENSIONS = ['.vmd', '.vpd', '.bvh', '.fbx', '.glb', '.gltf'] as const;

/** Everything that opens as a motion: .vrma itself and every convertible format. */
export const MOTION_EXTENSIONS = [VRMA_EXTENSION, ...CONVERTIBLE_EXTENSIONS] as const;

/** Avatars: VRM 1.0 / 0.x files, also when they are named .glb. */
export const AVATAR_EXTENSIONS = ['.vrm', '.glb'] as const;

/**
 * MMD models: not motions themselves, but the skeleton (bone rest positions) a .vmd/.vpd of the same
 * folder was made for. The studio converts MMD files of a model's folder with it; the CLI takes --pmx.
 */
export const MMD_MODEL_EXTENSIONS = ['.pmx', '.pmd'] as const;

/** MMD motion and pose files, converted with their folder's model when there is one. */
export const MMD_MOTION_EXTENSIONS = ['.vmd', '.vpd'] as const;

/** Extensions whose files may hold several motions ("takes": FBX animation stacks, glTF animations). */
export const TAKE_EXTENSIONS = ['.fbx', '.glb', '.gltf'] as const;

/** Every file the library lists and the studio opens. */
export const STUDIO_FILE_EXTENSIONS = [...MOTION_EXTENSIONS, ...AVATAR_EXTENSIONS, ...MMD_MODEL_EXTENSIONS] as const;
export type StudioFileExtension = (typeof STUDIO_FILE_EXTENSIONS)[number];

/** The extension of a file name or path, lower case with the dot; '' when it has none (".hidden" has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

const has = (list: readonly string[], fileName: string) => list.includes(extensionOf(fileName));

/** A motion to convert to .vrma (not .vrma itself). */
export const isConvertible = (fileName: string): boolean => has(CONVERTIBLE_EXTENSIONS, fileName);
/** Opens as a motion (.vrma or convertible). */
export const isMotionFile = (fileName: string): boolean => has(MOTION_EXTENSIONS, fileName);
export const isAvatarFile = (fileName: string): boolean => has(AVATAR_EXTENSIONS, fileName);
export const isMmdModelFile = (fileName: string): boolean => has(MMD_MODEL_EXTENSIONS, fileName);
export const isMmdMotionFile = (fileName: string): boolean => has(MMD_MOTION_EXTENSIONS, fileName);
/** A file that may hold several takes (shared/convert/takes.ts lists and converts them). */
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

/** "a, b or c", for messages that list the formats. */
export function formatList(extensions: readonly string[]): string {
  return extensions.length <= 1 ? extensions.join('') : `${extensions.slice(0, -1).join(', ')} or ${extensions[extensions.length - 1]}`;
}
