/**
 * Whether an MMD model fits a motion (issue 23): a .pmx/.pmd found beside a .vmd/.vpd (or given for
 * its folder) is used only when at least MODEL_FIT_MIN of the bones the motion keys exist in the
 * model; otherwise the motion was made for another model, whose bone lengths and arm angles would
 * bend it, and the standard skeleton is used with a note naming the mismatch. A model the user forces
 * (the CLI's --pmx) is used whatever the fit. The one rule for the studio, Convert Folder and the CLI.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { MmdRig } from './rig';

/** Share of the motion's keyed bones the model must have. */
export const MODEL_FIT_MIN = 0.8;

export interface ModelFit {
  /** Keyed bones (nameKey form) the model has, of `keyed`. */
  readonly found: number;
  readonly keyed: number;
  /** Keyed bones the model lacks, in the motion's order. */
  readonly missing: readonly string[];
  readonly fits: boolean;
}

/** How well `rig` fits a motion keying `keyedBones` (nameKey form; duplicates counted once). */
export function modelFit(keyedBones: readonly string[], rig: MmdRig): ModelFit {
  const keyed = [...new Set(keyedBones)];
  const missing = keyed.filter((k) => !rig.index.has(k));
  const found = keyed.length - missing.length;
  // A motion keying no bones (face only) fits any model: it needs none of its bones.
  return { found, keyed: keyed.length, missing, fits: keyed.length === 0 || found >= MODEL_FIT_MIN * keyed.length };
}

/** "the model Gene has 12 of the motion's 80 keyed bones (needs 80%): ... converted with the standard skeleton". */
export function modelMismatchWarning(modelName: string, fit: ModelFit): MotionWarning {
  const percent = Math.round((100 * fit.found) / Math.max(1, fit.keyed));
  const shown = fit.missing.slice(0, 8).join(', ');
  const more = fit.missing.length > 8 ? `, … (+${fit.missing.length - 8} more)` : '';
  return warning(
    `the model "${modelName}" does not fit this motion: it has ${fit.found} of the motion's ${fit.keyed} keyed bones (${percent}%, ${
      Math.round(MODEL_FIT_MIN * 100)
    }% needed; missing ${shown}${more}), so the motion was made for another model; converted with the standard MMD skeleton`,
    'mmd.modelMismatch',
    { model: modelName, found: fit.found, keyed: fit.keyed, percent, needed: Math.round(MODEL_FIT_MIN * 100), missing: `${shown}${more}` },
  );
}
