/**
 * "The model beside": the MMD model (.pmx, else .pmd) in the same folder as a .vmd/.vpd, found among
 * the files of the folders the user opened (the library's own listing), so main never looks at a
 * folder the user did not grant and the page never names a path it was not given. Several models in
 * one folder: the .pmx whose name comes first (the notice names the one used).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { extensionOf, isMmdModelFile, isMmdMotionFile } from '../../shared/formats/formats';
/** A file of a listing: the library's entries, or the CLI's look at a folder. */
interface Listed {
  readonly name: string;
  readonly path: string;
}

export function mmdModelBeside<E extends Listed>(motionRealPath: string, folders: readonly { readonly entries: readonly E[] }[]): E | null {
  if (!isMmdMotionFile(motionRealPath)) return null;
  const dir = dirname(motionRealPath);
  const models = folders
    .flatMap((f) => f.entries)
    .filter((e) => isMmdModelFile(e.name) && dirname(e.path) === dir)
    // .pmx before .pmd, then by name.
    .sort((a, b) => Number(extensionOf(a.name) !== '.pmx') - Number(extensionOf(b.name) !== '.pmx') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return models[0] ?? null;
}

/** Reads each model once however many motions of a batch use it; an unreadable model is none (the standard skeleton). */
export function modelBytesReader(): (path: string) => Promise<Uint8Array | undefined> {
  const models = new Map<string, Promise<Uint8Array | undefined>>();
  return (path) => {
    let bytes = models.get(path);
    if (!bytes) models.set(path, bytes = readFile(path).then((b) => new Uint8Array(b), () => undefined));
    return bytes;
  };
}
