/**
 * The MMD skeleton an export is written for: the given model's (.pmx or .pmd) or MMD's standard one,
 * with each bone's name as the model spells it. VMD bones are matched by their exact Shift_JIS bytes,
 * so a key for 左足IK would miss a model's 左足ＩＫ: the reader's nameKey form is not enough here.
 */
import { isPmd, parsePmdBones, parsePmxBones } from '../convert/mmd';
import { rigFromPmx, standardRig, type MmdRig } from '../convert/mmd/rig';
import { mapRigToVrm, type VrmMapping } from '../convert/mmd/vrmMapping';
import { fail } from '../errors';

export interface ExportRig {
  readonly rig: MmdRig;
  readonly mapping: VrmMapping;
  /** Name of every rig bone as written to the VMD. */
  readonly names: readonly string[];
  readonly modelName: string;
}

/** MMD's own spelling of a standard bone: IK is written full-width (左足ＩＫ, 右つま先ＩＫ). */
function standardName(key: string): string {
  return key.replace(/IK$/, 'ＩＫ');
}

export function exportRig(model?: Uint8Array): ExportRig {
  let rig: MmdRig;
  let names: string[];
  let modelName = '';
  if (model) {
    const parsed = isPmd(model) ? parsePmdBones(model) : parsePmxBones(model);
    rig = rigFromPmx(parsed);
    names = parsed.bones.map((b) => b.name);
    modelName = parsed.name;
  } else {
    rig = standardRig();
    names = rig.bones.map((b) => standardName(b.key));
  }
  const mapping = mapRigToVrm(rig);
  if (!mapping) fail('NO_HUMANOID', 'mmd.noLowerBody');
  return { rig, mapping, names, modelName };
}
