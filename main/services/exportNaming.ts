/**
 * Where an export lands, next to its source, without ever clobbering a file by surprise:
 *   walk.vmd / walk.bvh / walk.vpd  -> walk.vrma, then walk-2.vrma, walk-3.vrma ...
 *   walk.vrma (edited)              -> walk.edited.vrma, then walk.edited-2.vrma ...
 *   walk.edited.vrma (edited again) -> walk.edited-2.vrma ... (no walk.edited.edited.vrma)
 * With overwrite the first name is used as is: walk.vrma, or the .vrma source itself.
 */
import { basename, dirname, extname, join } from 'node:path';

const MAX_TRIES = 10_000;

function stemAndExt(sourcePath: string): { dir: string; stem: string; ext: string } {
  const ext = extname(sourcePath);
  return { dir: dirname(sourcePath), stem: basename(sourcePath, ext), ext: ext.toLowerCase() };
}

/** Candidate names in order of preference. */
export function* exportCandidates(sourcePath: string): Generator<string> {
  const { dir, stem, ext } = stemAndExt(sourcePath);
  if (ext !== '.vrma') {
    yield join(dir, `${stem}.vrma`);
    for (let n = 2; n < MAX_TRIES; n++) yield join(dir, `${stem}-${n}.vrma`);
    return;
  }
  const m = /^(.*)\.edited(?:-(\d+))?$/.exec(stem);
  const base = m ? m[1] : stem;
  const from = m ? (m[2] ? Number(m[2]) + 1 : 2) : 1;
  for (let n = from; n < MAX_TRIES; n++) yield join(dir, n === 1 ? `${base}.edited.vrma` : `${base}.edited-${n}.vrma`);
}

/**
 * The export target for `sourcePath`. `exists` tells whether a name is taken. With `overwrite`
 * a non-.vrma source exports to STEM.vrma and a .vrma source to itself.
 */
export async function exportTargetFor(
  sourcePath: string,
  exists: (path: string) => Promise<boolean>,
  overwrite = false,
): Promise<string> {
  if (overwrite) {
    const { dir, stem, ext } = stemAndExt(sourcePath);
    return ext === '.vrma' ? sourcePath : join(dir, `${stem}.vrma`);
  }
  for (const candidate of exportCandidates(sourcePath)) {
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`no free export name beside ${sourcePath}`);
}

/** Batch conversion target: always STEM.vrma beside the source. */
export function convertTargetFor(sourcePath: string): string {
  const { dir, stem } = stemAndExt(sourcePath);
  return join(dir, `${stem}.vrma`);
}

/**
 * Where an export to another format lands: STEM.EXT beside the source, then STEM-2.EXT, STEM-3.EXT ...
 * (walk.vrma -> walk.vmd, walk-2.vmd). Never the source itself, even with `overwrite` (which
 * otherwise takes STEM.EXT as is).
 */
export async function exportTargetAs(
  sourcePath: string,
  ext: string,
  exists: (path: string) => Promise<boolean>,
  overwrite = false,
): Promise<string> {
  const { dir, stem } = stemAndExt(sourcePath);
  const dotted = ext.startsWith('.') ? ext : `.${ext}`;
  const first = join(dir, `${stem}${dotted}`);
  const isSource = (p: string) => p === sourcePath || p.toLowerCase() === sourcePath.toLowerCase();
  if (overwrite && !isSource(first)) return first;
  for (let n = 1; n < MAX_TRIES; n++) {
    const candidate = n === 1 ? first : join(dir, `${stem}-${n}${dotted}`);
    if (!isSource(candidate) && !(await exists(candidate))) return candidate;
  }
  throw new Error(`no free export name beside ${sourcePath}`);
}
