/**
 * Every output name the studio and the CLI write, with ONE clash rule: when NAME.vrma is taken the
 * next names are NAME-2.vrma, NAME-3.vrma ... (the README's `dance-2.vrma` and `robot.TAKE-2.vrma`).
 *   save of a converted file, convert, Convert Folder:  walk.vmd  -> walk.vrma
 *   one take of several:                                robot.fbx -> robot.TAKE.vrma (TAKE made safe)
 *   export of an edited .vrma:                          walk.vrma -> walk.edited.vrma, then walk.edited-2.vrma
 *   export of walk.edited.vrma:                         walk.edited-2.vrma (no walk.edited.edited.vrma)
 * Pure string work on paths with either separator (no node:path): the studio's first chunk, main and
 * the CLI all read it. Whether a name is taken is the caller's question (`exists`).
 */
import { VRMA_EXTENSION } from './formats';

const MAX_TRIES = 10_000;

/** A path as its folder (with its trailing separator, '' for none), stem and extension (as written). */
export function splitPath(path: string): { dir: string; stem: string; ext: string } {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  const base = path.slice(cut);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? { dir: path.slice(0, cut), stem: base.slice(0, dot), ext: base.slice(dot) } : { dir: path.slice(0, cut), stem: base, ext: '' };
}

/**
 * A take name as part of a file name: characters that Windows, macOS or Linux refuse (\ / : * ? " < > |
 * and control characters) become "_", runs of them one, leading/trailing dots and spaces go; empty -> "take".
 */
export function safeTakeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const s = name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  return (s || 'take').slice(0, 120);
}

/** The document name of a file (its stem), or of one of its takes (STEM.TAKE): what it saves and exports as. */
export function documentName(fileName: string, take?: string): string {
  const { stem } = splitPath(fileName);
  return take === undefined ? stem : `${stem}.${safeTakeName(take)}`;
}

/** The clash rule: the n-th choice of a name (1: the name itself, then NAME-2.vrma, NAME-3.vrma ...). */
export function numbered(path: string, n: number): string {
  if (n <= 1) return path;
  const { dir, stem, ext } = splitPath(path);
  return `${dir}${stem}-${n}${ext}`;
}

/** The .vrma a source converts to, beside it: STEM.vrma, or STEM.TAKE.vrma for one of its takes. */
export function vrmaBeside(sourcePath: string, take?: string): string {
  const { dir, stem } = splitPath(sourcePath);
  return `${dir}${take === undefined ? stem : `${stem}.${safeTakeName(take)}`}${VRMA_EXTENSION}`;
}

/**
 * Output path of each take given the path a single-motion file would get (…/NAME.vrma): one take keeps
 * it, several get …/NAME.TAKE.vrma; two takes whose names clash once made safe follow the clash rule.
 */
export function takeOutputs(output: string, takes: readonly string[]): { take: string; output: string }[] {
  if (takes.length === 1) return [{ take: takes[0], output }];
  const stem = output.replace(/\.vrma$/i, '');
  const used = new Set<string>();
  return takes.map((take) => {
    const first = `${stem}.${safeTakeName(take)}${VRMA_EXTENSION}`;
    let name = first;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = numbered(first, n);
    used.add(name.toLowerCase());
    return { take, output: name };
  });
}

/** Export names in order of preference (the clash rule applied to walk.vrma or walk.edited.vrma). */
export function* exportCandidates(sourcePath: string, take?: string): Generator<string> {
  const { dir, stem, ext } = splitPath(sourcePath);
  const named = take === undefined ? stem : `${stem}.${safeTakeName(take)}`;
  if (ext.toLowerCase() !== VRMA_EXTENSION) {
    for (let n = 1; n < MAX_TRIES; n++) yield numbered(`${dir}${named}${VRMA_EXTENSION}`, n);
    return;
  }
  // Exporting an export again continues its numbers rather than stacking ".edited".
  const m = /^(.*)\.edited(?:-(\d+))?$/.exec(named);
  const base = `${dir}${m ? m[1] : named}.edited${VRMA_EXTENSION}`;
  const from = m ? (m[2] ? Number(m[2]) + 1 : 2) : 1;
  for (let n = from; n < MAX_TRIES; n++) yield numbered(base, n);
}

/**
 * The export target for `sourcePath` (one take of it when `take` is given). With `overwrite` a
 * non-.vrma source exports to STEM.vrma and a .vrma source to itself; otherwise the first free candidate.
 */
export async function exportTargetFor(sourcePath: string, exists: (path: string) => Promise<boolean>, overwrite = false, take?: string): Promise<string> {
  if (overwrite) {
    const { ext } = splitPath(sourcePath);
    return ext.toLowerCase() === VRMA_EXTENSION && take === undefined ? sourcePath : exportCandidates(sourcePath, take).next().value!;
  }
  for (const candidate of exportCandidates(sourcePath, take)) {
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`no free export name beside ${sourcePath}`);
}

/**
 * The target of an export to another format (walk.vrma -> walk.vmd, then walk-2.vmd), beside the
 * source and never the source itself (kit.glb exported as .glb is kit-2.glb); with `overwrite` the
 * first name even when it exists. One take of a file: STEM.TAKE.EXT.
 */
export async function exportTargetAs(sourcePath: string, ext: string, exists: (path: string) => Promise<boolean>, overwrite = false, take?: string): Promise<string> {
  const { dir, stem } = splitPath(sourcePath);
  const dotted = ext.startsWith('.') ? ext : `.${ext}`;
  const first = `${dir}${take === undefined ? stem : `${stem}.${safeTakeName(take)}`}${dotted}`;
  const isSource = (p: string) => p.toLowerCase() === sourcePath.toLowerCase();
  if (overwrite && !isSource(first)) return first;
  for (let n = 1; n < MAX_TRIES; n++) {
    const candidate = numbered(first, n);
    if (!isSource(candidate) && !(await exists(candidate))) return candidate;
  }
  throw new Error(`no free export name beside ${sourcePath}`);
}
