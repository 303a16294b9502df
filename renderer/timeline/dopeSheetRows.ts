/**
 * The dope sheet's rows: one per animated channel (and one per skeleton bone without a track, to key
 * into), in the groups people look for: torso, head, arms, legs, fingers, hips position,
 * expressions, lookAt. Which of them show is the row filter (filterRows): by default only keyed
 * rows, as Blender's "Only Show Errors/Selected" family does (test.vrma has one animated bone, not
 * 20 empty rows to scroll past). Pure so it is tested in Node; the view only lays them out.
 */
import type { Channel, ChannelPath, Motion } from '../../shared/motion/types';
import { HUMAN_BONE_NAMES, isFingerBone, type HumanBoneName } from '../../shared/vrm/humanBones';

export type GroupId = 'torso' | 'head' | 'leftArm' | 'rightArm' | 'leftLeg' | 'rightLeg' | 'fingers' | 'hipsPosition' | 'expressions' | 'lookAt';

export const GROUP_ORDER: readonly GroupId[] = ['torso', 'head', 'leftArm', 'rightArm', 'leftLeg', 'rightLeg', 'fingers', 'hipsPosition', 'expressions', 'lookAt'];

export interface DopeRow {
  /** "node/path": the selection key. */
  readonly id: string;
  readonly group: GroupId;
  readonly label: string;
  readonly node: number;
  readonly path: ChannelPath;
  /** Absent for a bone without a track (the row is there to key into). */
  readonly channel?: Channel;
  readonly bone?: HumanBoneName;
}

export interface DopeGroup {
  readonly id: GroupId;
  readonly rows: readonly DopeRow[];
}

function boneGroup(bone: HumanBoneName): GroupId {
  if (isFingerBone(bone)) return 'fingers';
  if (/^left(Shoulder|UpperArm|LowerArm|Hand)$/.test(bone)) return 'leftArm';
  if (/^right(Shoulder|UpperArm|LowerArm|Hand)$/.test(bone)) return 'rightArm';
  if (/^left(UpperLeg|LowerLeg|Foot|Toes)$/.test(bone)) return 'leftLeg';
  if (/^right(UpperLeg|LowerLeg|Foot|Toes)$/.test(bone)) return 'rightLeg';
  if (/^(neck|head|leftEye|rightEye|jaw)$/.test(bone)) return 'head';
  return 'torso';
}

export const rowId = (node: number, path: ChannelPath) => `${node}/${path}`;

/** Groups in GROUP_ORDER, empty groups left out; bones in the humanoid's order. */
export function dopeRows(motion: Motion): DopeGroup[] {
  const byGroup = new Map<GroupId, DopeRow[]>(GROUP_ORDER.map((g) => [g, []]));
  const channelOf = new Map(motion.channels.map((c) => [rowId(c.node, c.path), c]));
  const { boneToNode } = motion.humanoid;
  for (const bone of HUMAN_BONE_NAMES) {
    const node = boneToNode[bone];
    if (node === undefined) continue;
    const rot = channelOf.get(rowId(node, 'rotation'));
    byGroup.get(boneGroup(bone))!.push({ id: rowId(node, 'rotation'), group: boneGroup(bone), label: bone, node, path: 'rotation', channel: rot, bone });
    if (bone === 'hips') {
      const pos = channelOf.get(rowId(node, 'translation'));
      byGroup.get('hipsPosition')!.push({ id: rowId(node, 'translation'), group: 'hipsPosition', label: 'hips', node, path: 'translation', channel: pos, bone });
    }
  }
  // Expressions and the gaze in the file's map stay as rows after their last key is deleted (to key into, as bones).
  for (const e of motion.expressions) {
    const c = channelOf.get(rowId(e.node, 'translation'));
    byGroup.get('expressions')!.push({ id: rowId(e.node, 'translation'), group: 'expressions', label: e.name, node: e.node, path: 'translation', channel: c });
  }
  if (motion.lookAtNode !== undefined) {
    const c = channelOf.get(rowId(motion.lookAtNode, 'rotation'));
    byGroup.get('lookAt')!.push({ id: rowId(motion.lookAtNode, 'rotation'), group: 'lookAt', label: 'lookAt', node: motion.lookAtNode, path: 'rotation', channel: c });
  }
  return GROUP_ORDER.map((id) => ({ id, rows: byGroup.get(id)! })).filter((g) => g.rows.length > 0);
}

/** Which rows the dope sheet shows: keyed ones (the default), every bone, or the selected bone's. */
export type RowFilterMode = 'keyed' | 'all' | 'selected';
export const ROW_FILTER_MODES: readonly RowFilterMode[] = ['keyed', 'all', 'selected'];

export interface RowFilter {
  readonly mode: RowFilterMode;
  /** Rows whose label (or shown name) contains this, case-insensitively; '' shows every row. */
  readonly search: string;
  readonly selectedBone?: HumanBoneName | null;
  /** A row's shown name, when it differs from its label (translated expression names). */
  readonly shownName?: (row: DopeRow) => string;
}

/** The groups with the rows the filter lets through; groups left empty are left out. */
export function filterRows(groups: readonly DopeGroup[], filter: RowFilter): DopeGroup[] {
  const needle = filter.search.trim().toLowerCase();
  const keep = (r: DopeRow): boolean => {
    if (filter.mode === 'keyed' && !r.channel) return false;
    if (filter.mode === 'selected' && (!filter.selectedBone || r.bone !== filter.selectedBone)) return false;
    if (!needle) return true;
    return r.label.toLowerCase().includes(needle) || !!filter.shownName?.(r).toLowerCase().includes(needle);
  };
  return groups.map((g) => ({ id: g.id, rows: g.rows.filter(keep) })).filter((g) => g.rows.length > 0);
}

/** A laid-out line: a group header or a row, top to bottom; collapsed groups show their header only. */
export type DopeLine = { readonly kind: 'group'; readonly group: DopeGroup } | { readonly kind: 'row'; readonly row: DopeRow };

export function dopeLines(groups: readonly DopeGroup[], collapsed: ReadonlySet<GroupId>): DopeLine[] {
  const out: DopeLine[] = [];
  for (const g of groups) {
    out.push({ kind: 'group', group: g });
    if (!collapsed.has(g.id)) { for (const row of g.rows) out.push({ kind: 'row', row }); }
  }
  return out;
}
