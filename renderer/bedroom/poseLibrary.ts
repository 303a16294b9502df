/**
 * The sleep poses found in the folders the user opened in the studio: every .vpd (always one frame)
 * and every .vrma whose animation is one frame long (duration 0). A .vrma with a longer animation is a
 * motion, not a pose: the bedroom would play only its first frame, so it is left out of the list
 * rather than offered and silently cut. Files the studio cannot describe are left out too.
 */
import type { FileDetails, LibrarySnapshot } from '../../shared/contract/studioApi';

export interface PoseFileEntry {
  readonly path: string;
  /** What the list shows: the path inside its folder, led by the folder's name when several are open. */
  readonly name: string;
}

export interface PoseLibrarySource {
  listLibrary(): Promise<readonly LibrarySnapshot[]>;
  describeFile(path: string): Promise<FileDetails>;
}

/** Above this many candidate .vrma files only the first ones are described (each costs a file read). */
export const MAX_DESCRIBED = 500;

function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

export async function listPoseFiles(source: PoseLibrarySource): Promise<PoseFileEntry[]> {
  const folders = await source.listLibrary();
  const several = folders.length > 1;
  const candidates: PoseFileEntry[] = [];
  for (const folder of folders) {
    for (const e of folder.entries) {
      if (e.ext !== '.vpd' && e.ext !== '.vrma') continue;
      candidates.push({ path: e.path, name: several ? `${baseName(folder.root)}/${e.relPath}` : e.relPath });
    }
  }
  let described = 0;
  const kept = await Promise.all(
    candidates.map(async (c) => {
      if (c.path.toLowerCase().endsWith('.vpd')) return c;
      if (described++ >= MAX_DESCRIBED) return null;
      try {
        const d = await source.describeFile(c.path);
        return d.kind === 'pose' && d.duration === 0 ? c : null;
      } catch {
        return null;
      }
    }),
  );
  const seen = new Set<string>();
  return kept
    .filter((c): c is PoseFileEntry => c !== null && !seen.has(c.path) && !!seen.add(c.path))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
