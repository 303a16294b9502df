/** VRM 1.0 humanoid bone names and their standard hierarchy (VRMC_vrm-1.0 humanoid spec). */

const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Little'] as const;
const FINGER_SEGMENTS: Record<(typeof FINGERS)[number], readonly string[]> = {
  Thumb: ['Metacarpal', 'Proximal', 'Distal'],
  Index: ['Proximal', 'Intermediate', 'Distal'],
  Middle: ['Proximal', 'Intermediate', 'Distal'],
  Ring: ['Proximal', 'Intermediate', 'Distal'],
  Little: ['Proximal', 'Intermediate', 'Distal'],
};

function fingerBones(side: 'left' | 'right'): string[] {
  return FINGERS.flatMap((f) => FINGER_SEGMENTS[f].map((s) => `${side}${f}${s}`));
}

export const HUMAN_BONE_NAMES = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftEye',
  'rightEye',
  'jaw',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'leftToes',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'rightToes',
  'leftShoulder',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightShoulder',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  ...fingerBones('left'),
  ...fingerBones('right'),
] as const;

export type HumanBoneName = (typeof HUMAN_BONE_NAMES)[number];

const BONE_SET: ReadonlySet<string> = new Set(HUMAN_BONE_NAMES);
export function isHumanBoneName(name: string): name is HumanBoneName {
  return BONE_SET.has(name);
}

/**
 * The bones VRM 1.0 requires (VRMC_vrm-1.0 humanoid.md); VRMC_vrm_animation requires the same ones in
 * its humanBones map, so even a file that animates none of them lists them.
 */
export const REQUIRED_HUMAN_BONES: readonly HumanBoneName[] = [
  'hips',
  'spine',
  'head',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
];

/** Parent in the VRM humanoid hierarchy (required chain plus optional bones); hips has none. */
export const HUMAN_BONE_PARENT: Readonly<Record<HumanBoneName, HumanBoneName | null>> = (() => {
  const p: Record<string, string | null> = {
    hips: null,
    spine: 'hips',
    chest: 'spine',
    upperChest: 'chest',
    neck: 'upperChest',
    head: 'neck',
    leftEye: 'head',
    rightEye: 'head',
    jaw: 'head',
    leftUpperLeg: 'hips',
    leftLowerLeg: 'leftUpperLeg',
    leftFoot: 'leftLowerLeg',
    leftToes: 'leftFoot',
    rightUpperLeg: 'hips',
    rightLowerLeg: 'rightUpperLeg',
    rightFoot: 'rightLowerLeg',
    rightToes: 'rightFoot',
    leftShoulder: 'upperChest',
    leftUpperArm: 'leftShoulder',
    leftLowerArm: 'leftUpperArm',
    leftHand: 'leftLowerArm',
    rightShoulder: 'upperChest',
    rightUpperArm: 'rightShoulder',
    rightLowerArm: 'rightUpperArm',
    rightHand: 'rightLowerArm',
  };
  for (const side of ['left', 'right'] as const) {
    for (const f of FINGERS) {
      let parent = `${side}Hand`;
      for (const s of FINGER_SEGMENTS[f]) {
        const name = `${side}${f}${s}`;
        p[name] = parent;
        parent = name;
      }
    }
  }
  return p as Record<HumanBoneName, HumanBoneName | null>;
})();

/** The bone on the other side (leftHand <-> rightHand); centre bones map to themselves. */
export function mirrorBoneName(name: HumanBoneName): HumanBoneName {
  if (name.startsWith('left')) return ('right' + name.slice(4)) as HumanBoneName;
  if (name.startsWith('right')) return ('left' + name.slice(5)) as HumanBoneName;
  return name;
}

export function isFingerBone(name: HumanBoneName): boolean {
  return /(Thumb|Index|Middle|Ring|Little)/.test(name);
}

/** The 22 main bones the studio shows markers for and poses are measured on. */
export const MAIN_BONES: readonly HumanBoneName[] = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftShoulder',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightShoulder',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'leftToes',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'rightToes',
];

export const EXPRESSION_PRESETS = [
  'happy',
  'angry',
  'sad',
  'relaxed',
  'surprised',
  'aa',
  'ih',
  'ou',
  'ee',
  'oh',
  'blink',
  'blinkLeft',
  'blinkRight',
  'lookUp',
  'lookDown',
  'lookLeft',
  'lookRight',
  'neutral',
] as const;
export type ExpressionPreset = (typeof EXPRESSION_PRESETS)[number];
