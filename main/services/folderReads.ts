/**
 * What the page may read below a folder the user opened (issue 24, finding 9: after opening ~, the
 * page could read ~/.ssh/id_rsa and any file type under any hidden folder):
 *  - nothing inside a hidden folder, and no hidden file, below the opened folder (the opened folder
 *    itself may be hidden: the user chose it);
 *  - only the kinds of file the studio opens (motions, models, avatars: shared/formats/formats.ts),
 *    and the resources a .gltf beside them references (its .bin buffers and its textures).
 * Files the user opened by name are not limited here (AccessPolicy keeps them apart).
 */
import { promises as fs } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { StudioApiError } from '../../shared/contract/studioApi';
import { studioExtensionOf } from '../../shared/formats/formats';

/** Resource kinds a .gltf references by URI (buffers and images). */
const RESOURCE_EXTENSIONS = new Set(['.bin', '.png', '.jpg', '.jpeg', '.webp', '.ktx2']);
/** How far above a resource its .gltf may be (textures/skin.png beside the .gltf's folder). */
const RESOURCE_LEVELS = 3;
/** Largest .gltf read to look for references (real ones are kilobytes; buffers are separate files). */
const MAX_GLTF_BYTES = 16 * 1024 * 1024;

const denied = (message: string) => new StudioApiError('DENIED', message);

/** Throws DENIED unless `real` (inside every one of `roots`) is a file the studio may read there. */
export async function folderReadable(roots: readonly string[], real: string, asked: string): Promise<void> {
  const visible = roots.some((root) => !relative(root, real).split(sep).some((seg) => seg.startsWith('.')));
  if (!visible) throw denied(`${asked} is a hidden file or inside a hidden folder of the opened folder; open it by name to read it`);
  if (studioExtensionOf(real) !== null) return;
  if (RESOURCE_EXTENSIONS.has(extname(real).toLowerCase()) && (await referencedByGltf(roots, real))) return;
  throw denied(`${asked} is not a motion, model or avatar file (nor a resource of a .gltf beside it); open it by name to read it`);
}

/** True when a .gltf in the resource's folder, or up to RESOURCE_LEVELS above it inside a root, names it. */
async function referencedByGltf(roots: readonly string[], real: string): Promise<boolean> {
  let dir = dirname(real);
  for (let level = 0; level <= RESOURCE_LEVELS && roots.some((r) => dir === r || dir.startsWith(r + sep)); level++) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.toLowerCase().endsWith('.gltf') || name.startsWith('.')) continue;
      if ((await urisOf(join(dir, name))).some((uri) => resolve(dir, uri) === real)) return true;
    }
    if (dir === dirname(dir)) break;
    dir = dirname(dir);
  }
  return false;
}

/** The relative URIs of a .gltf's buffers and images (data: URIs and unreadable files give none). */
async function urisOf(gltf: string): Promise<string[]> {
  try {
    const st = await fs.stat(gltf);
    if (!st.isFile() || st.size > MAX_GLTF_BYTES) return [];
    const json = JSON.parse(await fs.readFile(gltf, 'utf8')) as { buffers?: { uri?: unknown }[]; images?: { uri?: unknown }[] };
    const uris = [...(json.buffers ?? []), ...(json.images ?? [])].map((x) => x?.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:'));
    return uris.flatMap((u) => {
      try {
        return [decodeURIComponent(u)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/**
 * Why opening the typed folder `real` must be confirmed for what it would expose, or null: the home
 * folder itself, or a folder with hidden folders directly in it (.ssh, .config, .git ...). Asked like
 * a hidden folder (backend.ts typedPathConcern), before anything is granted.
 */
export async function hiddenFolderConcern(real: string, home: string): Promise<string | null> {
  if (resolve(real) === resolve(home)) return `${real} is your home folder, which holds hidden folders of settings and keys`;
  // Names first, then a stat of the dot-names only (the library's walk is the one typed readdir in main/).
  const names = await fs.readdir(real).catch(() => [] as string[]);
  const hidden: string[] = [];
  for (const name of names) if (name.startsWith('.') && (await fs.lstat(join(real, name)).then((s) => s.isDirectory(), () => false))) hidden.push(name);
  if (!hidden.length) return null;
  return `${real} holds hidden folders (${hidden.slice(0, 5).join(', ')}${hidden.length > 5 ? ', …' : ''}), which usually hold settings or keys`;
}
