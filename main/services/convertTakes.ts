/**
 * Plans the takes of FBX/glTF files for the conversion engine: a file with one take converts to its
 * planned NAME.vrma, one with several to NAME.TAKE.vrma each (shared/convert/takes.ts), `take` keeps only
 * the named one (as NAME.vrma). A .glb found by a folder walk that is a VRM avatar is not a motion and
 * is left out; named on the command line, it is reported.
 *
 * More than MAX_TAKES_WITHOUT_ASKING takes from one file are written only when the user asked for
 * all of them (`convert --all-takes`, Convert Folder's confirmation): a 3 MB .glb became 2,000
 * files, 110 MB, without a question (issue 24, finding 12). Otherwise the file is reported (tooMany).
 */
import { readFile } from 'node:fs/promises';
import { MotionError, motionErrorInfo, type MotionErrorInfo } from '../../shared/errors';
import { hasTakes, listTakes, takeOutputs } from '../../shared/convert/takes';
import { MAX_TAKES_WITHOUT_ASKING } from '../../shared/contract/schema';
import { refuseManyTakes } from '../../shared/convert/takeLimit';

export interface PlannedFile {
  readonly input: string;
  readonly output: string;
  /** Found by walking a folder (not named by the user). */
  readonly walked?: boolean;
}

export interface PlannedTake {
  readonly input: string;
  readonly output: string;
  readonly take?: string;
}

export interface TakePlan {
  readonly planned: PlannedTake[];
  /** `error` in English (the CLI); `problem` for the studio to word (shared/errors.ts). */
  readonly problems: { input: string; error: string; problem?: MotionErrorInfo }[];
  /** Walked .glb files that are avatars, left out. */
  readonly avatars: string[];
  /** Files left out for having more than `maxTakes` takes (also in problems). */
  readonly tooMany: string[];
}

export { MAX_TAKES_WITHOUT_ASKING };

/** Lists a file's takes; in this thread by default (the CLI), on a worker for Convert Folder (finding 1). */
export type ListTakes = (path: string) => Promise<readonly { readonly name: string }[]>;

const listHere: ListTakes = async (path) => listTakes(path, new Uint8Array(await readFile(path)));

/** `maxTakes`: files with more takes are left out and reported (undefined: every take, as asked). */
export async function planTakes(files: readonly PlannedFile[], take?: string, maxTakes?: number, list: ListTakes = listHere): Promise<TakePlan> {
  const tooMany: string[] = [];
  const planned: PlannedTake[] = [];
  const problems: { input: string; error: string; problem?: MotionErrorInfo }[] = [];
  const avatars: string[] = [];
  for (const f of files) {
    if (!hasTakes(f.input)) {
      planned.push({ input: f.input, output: f.output });
      continue;
    }
    let names: string[];
    try {
      names = (await list(f.input)).map((t) => t.name);
    } catch (e) {
      if (e instanceof MotionError && e.code === 'IS_AVATAR' && f.walked) {
        avatars.push(f.input);
        continue;
      }
      problems.push({ input: f.input, error: `${f.input}: ${e instanceof MotionError ? e.message : (e as Error).message}`, problem: motionErrorInfo(e) });
      continue;
    }
    if (!names.length && f.walked && /\.glb$/i.test(f.input)) {
      // A model without animations (a prop, a scene) in a folder of motions: not a motion, left out.
      avatars.push(f.input);
      continue;
    }
    if (!names.length) {
      problems.push({ input: f.input, error: `${f.input}: the file has no animation (no take to convert)`, problem: { code: 'NO_KEYS', detail: 'gltf.noAnimations' } });
      continue;
    }
    if (take !== undefined) {
      if (!names.includes(take)) {
        problems.push({
          input: f.input,
          error: `${f.input}: no take named "${take}"; the takes are ${names.map((n) => `"${n}"`).join(', ')}`,
          problem: { code: 'BAD_PARAMETER', detail: 'take.unknown', params: { take, takes: names.map((n) => `“${n}”`).join(', ') } },
        });
        continue;
      }
      planned.push({ input: f.input, output: f.output, take });
      continue;
    }
    if (maxTakes !== undefined && names.length > maxTakes) {
      try {
        refuseManyTakes(f.input, names.length, maxTakes);
      } catch (e) {
        tooMany.push(f.input);
        problems.push({ input: f.input, error: (e as Error).message, problem: motionErrorInfo(e) });
        continue;
      }
    }
    for (const t of takeOutputs(f.output, names)) planned.push({ input: f.input, output: t.output, take: t.take });
  }
  return { planned, problems, avatars, tooMany };
}
