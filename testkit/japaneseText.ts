/**
 * What counts as untranslated English on a Japanese screen, shared by the e2e check of the whole page
 * (tests/e2e/i18n.test.ts) and the unit tests of error and edit-report texts (tests/unit/i18n).
 * Words allowed in Latin letters: the product and format names, units, key names, VRM humanoid bone
 * names (spec identifiers) and the built-in motion's file name. Anything else with two or more Latin
 * letters in a row is an untranslated string.
 */
import { HUMAN_BONE_NAMES } from '../shared/vrm/humanBones';

export const ALLOWED_LATIN = new Set([
  'VRMA',
  'VRM',
  'Studio',
  'glTF',
  'GLB',
  'JSON',
  'BVH',
  'VMD',
  'VPD',
  'PMX',
  'PMD',
  'FBX',
  'MMD',
  'VRoid',
  'IK',
  'IN',
  'OUT',
  'OK',
  's',
  'ms',
  'fps',
  'rad',
  'm',
  'mm',
  'cm',
  'kB',
  'KB',
  'MB',
  'GB',
  'byte',
  'x',
  'y',
  'z',
  'N',
  'VR',
  'Ctrl',
  'Shift',
  'Alt',
  'Space',
  'Delete',
  'Home',
  'End',
  'Esc',
  'F1',
  'Tab',
  'Enter',
  'English', // the language picker names each language in itself
  'CMU', // the CMU motion-capture database (its BVH unit)
  'three',
  'js',
  'vrm',
  'UniVRM',
  'Unity',
  'Blender',
  'Mixamo', // players and tools, by their names
  'walk', // the built-in motion (walk.vrma)
  ...HUMAN_BONE_NAMES,
]);
export const FILE_NAME = /[\w.-]+\.(vrma|vrm|vmd|vpd|bvh|glb|gltf|pmx|pmd|fbx|json)\b/gi;
export const EXTENSION = /\.(vrma|vrm|vmd|vpd|bvh|glb|gltf|pmx|pmd|fbx)\b/gi;
export const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;

/** The Latin words of a shown string that are not on the allow-list. */
export function englishWords(text: string): string[] {
  const stripped = text.replace(FILE_NAME, ' ').replace(EXTENSION, ' ');
  return (stripped.match(/[A-Za-z][A-Za-z']+/g) ?? []).filter((w) => !ALLOWED_LATIN.has(w));
}
