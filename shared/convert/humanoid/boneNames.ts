/**
 * What a joint name says about its humanoid role, across the common conventions (BVH, FBX and glTF
 * rigs alike): CMU/cgspeed (LHipJoint/LeftUpLeg/LowerBack), Daz (hip/abdomen/rShldr/rButtock/rThigh;
 * Genesis lShldrBend/lThighBend), Mixamo (`mixamorig:LeftArm`, `mixamorig1:`, unprefixed),
 * MotionBuilder-style (Chest2/RightCollar/RightShoulder/RightElbow/RightHip/RightKnee), 3ds Max Biped
 * ("Bip01 L Thigh"), Maya HumanIK (`Character1_LeftUpLeg`), Unreal (pelvis, spine_01, clavicle_l,
 * upperarm_l, thigh_r, calf_l, ball_l), Quaternius (Hips/Abdomen/Torso, UpperArm.L, Wrist.L),
 * KayKit/Blender (upperarm.l, lowerleg.r), Rigify deform bones (DEF-upper_arm.L, DEF-shin.R) and
 * Kenney/Maya (LeftArm, LeftUpperArm, LeftLowerLeg). Spine joints between the hips and the arms are
 * placed by structure, not by name (the names vary too much).
 */

export type Side = 'left' | 'right' | null;

export type NamedRole = 'hips' | 'neck' | 'head' | 'eye' | 'jaw' | 'upperLeg' | 'lowerLeg' | 'foot' | 'toes' | 'collar' | 'shoulder' | 'upperArm' | 'lowerArm' | 'hand' | 'finger';

export type FingerName = 'Thumb' | 'Index' | 'Middle' | 'Ring' | 'Little';

export interface NameInfo {
  readonly side: Side;
  /** Lower-case letters and digits of the name without namespace, rig prefix or side marker. */
  readonly base: string;
  readonly role?: NamedRole;
  readonly finger?: FingerName;
  /** The segment number written in a finger name (Index1 -> 1); undefined when none. */
  readonly fingerNumber?: number;
}

const RIG_PREFIX = /^(mixamorig\d*[_:]?|bip0*1[\s_]*|bip0*1$|character\d*_|cc_base_|def[-_]|b_|j_bip_|jbip_)/i;

function stripNamespace(name: string): string {
  const cut = Math.max(name.lastIndexOf(':'), name.lastIndexOf('|'));
  return (cut >= 0 ? name.slice(cut + 1) : name).trim();
}

function splitSide(name: string): { side: Side; rest: string } {
  let m = /^(left|right)(?![a-z])/i.exec(name) ?? /^(left|right)/i.exec(name);
  if (m) return { side: m[1].toLowerCase() === 'left' ? 'left' : 'right', rest: name.slice(m[0].length) };
  // Single-letter prefix only when the next character starts a new word ("lShldr", "LHipJoint", "L Thigh").
  m = /^([lLrR])(?=[A-Z_\s.-])/.exec(name);
  if (m) return { side: m[1].toLowerCase() === 'l' ? 'left' : 'right', rest: name.slice(1) };
  m = /[_\s.-](l|r|left|right)$/i.exec(name);
  if (m) return { side: m[1][0].toLowerCase() === 'l' ? 'left' : 'right', rest: name.slice(0, m.index) };
  m = /(left|right)/i.exec(name);
  if (m) return { side: m[1].toLowerCase() === 'left' ? 'left' : 'right', rest: name.slice(0, m.index) + name.slice(m.index + m[0].length) };
  return { side: null, rest: name };
}

const CENTRE_ROLES: Readonly<Record<string, NamedRole>> = {
  hips: 'hips',
  hip: 'hips',
  pelvis: 'hips',
  neck: 'neck',
  neck0: 'neck',
  neck1: 'neck',
  neck2: 'neck',
  neck01: 'neck',
  necklower: 'neck',
  head: 'head',
  jaw: 'jaw',
};

const SIDED_ROLES: Readonly<Record<string, NamedRole>> = {
  upleg: 'upperLeg',
  thigh: 'upperLeg',
  thighbend: 'upperLeg',
  upperleg: 'upperLeg',
  legupper: 'upperLeg',
  hip: 'upperLeg',
  femur: 'upperLeg',
  leg: 'lowerLeg',
  shin: 'lowerLeg',
  knee: 'lowerLeg',
  lowerleg: 'lowerLeg',
  leglower: 'lowerLeg',
  calf: 'lowerLeg',
  tibia: 'lowerLeg',
  foot: 'foot',
  ankle: 'foot',
  toebase: 'toes',
  toe: 'toes',
  toes: 'toes',
  forefoot: 'toes',
  ball: 'toes',
  toe0: 'toes',
  collar: 'collar',
  clavicle: 'collar',
  shoulder: 'shoulder',
  arm: 'upperArm',
  shldr: 'upperArm',
  shldrbend: 'upperArm',
  upperarm: 'upperArm',
  armupper: 'upperArm',
  humerus: 'upperArm',
  upperarm01: 'upperArm',
  lowerarm01: 'lowerArm',
  forearm: 'lowerArm',
  forearmbend: 'lowerArm',
  elbow: 'lowerArm',
  lowerarm: 'lowerArm',
  armlower: 'lowerArm',
  radius: 'lowerArm',
  hand: 'hand',
  wrist: 'hand',
  palm: 'hand',
  eye: 'eye',
};

const FINGER_WORDS: Readonly<Record<string, FingerName>> = {
  thumb: 'Thumb',
  index: 'Index',
  middle: 'Middle',
  mid: 'Middle',
  ring: 'Ring',
  pinky: 'Little',
  little: 'Little',
  pinkie: 'Little',
};
const BIPED_FINGERS: readonly FingerName[] = ['Thumb', 'Index', 'Middle', 'Ring', 'Little'];

export function nameInfo(raw: string): NameInfo {
  let name = stripNamespace(raw);
  for (let i = 0; i < 2; i++) name = name.replace(RIG_PREFIX, '');
  const { side, rest } = splitSide(name.trim());
  const base = rest.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (side === null) {
    const role = CENTRE_ROLES[base];
    return role ? { side, base, role } : { side, base };
  }
  const finger = /^(?:hand)?(thumb|index|middle|mid|ring|pinky|pinkie|little)(?:finger)?(\d*)$/.exec(base);
  if (finger) {
    return { side, base, role: 'finger', finger: FINGER_WORDS[finger[1]], fingerNumber: finger[2] ? Number(finger[2]) : undefined };
  }
  // 3ds Max Biped: Finger0 = thumb ... Finger4 = little; Finger01, Finger02 are the further segments.
  const biped = /^finger([0-4])(\d?)$/.exec(base);
  if (biped) {
    return { side, base, role: 'finger', finger: BIPED_FINGERS[Number(biped[1])], fingerNumber: biped[2] ? Number(biped[2]) + 1 : 1 };
  }
  const role = SIDED_ROLES[base];
  return role ? { side, base, role } : { side, base };
}

/** Name words that mark an IK target, pole vector, control or mechanism joint rather than a deform bone. */
const HELPER_WORDS: ReadonlySet<string> = new Set([
  'ik',
  'pole',
  'roll',
  'ctrl',
  'control',
  'controls',
  'controller',
  'effector',
  'target',
  'locator',
  'handle',
  'mch',
  'org',
  'wgt',
  'vis',
]);

/**
 * True for IK/pole/control helpers: Quaternius `PoleTarget.L`, Unreal `ik_foot_root`, Maya `ikHandle1`,
 * HumanIK `Character1_Ctrl_Hips`, Rigify `MCH-`/`ORG-`/`WGT-` bones, `Foot_IK.R`.
 */
export function isHelperJointName(raw: string): boolean {
  const name = stripNamespace(raw);
  // Words split at non-letters and at camelCase humps ("PoleTarget" -> pole target, "ikHandle" -> ik handle).
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/);
  return words.some((w) => HELPER_WORDS.has(w));
}
