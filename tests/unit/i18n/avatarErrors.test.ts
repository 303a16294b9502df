/**
 * Avatar and IK errors have one wording: each problem the avatar check finds is a MotionError whose
 * catalogue detail (errorDetail.avatar.*) says, in English, exactly the sentence the check returns,
 * and the studio words it in Japanese with the same values; an IK limb the avatar lacks likewise.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseGlb, packGlb } from '../../../shared/gltf/glb';
import { avatarCheck, avatarProblem } from '../../../shared/avatar/avatarCheck';
import { MotionError } from '../../../shared/errors';
import { setLocale, translate } from '../../../shared/i18n';
import { errorText } from '../../../renderer/ui/messages';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';

afterEach(() => setLocale('en'));

function edited(edit: (json: Record<string, any>) => void): Uint8Array {
  const g = parseGlb(makeMannequinVrm({ version: '1.0' }));
  const json = structuredClone(g.json) as Record<string, any>;
  edit(json);
  return packGlb(json, g.bin);
}

const CASES: Record<string, Uint8Array> = {
  unreadable: new TextEncoder().encode('{ not json'),
  jsonNotObject: new TextEncoder().encode('[1, 2]'),
  plainGltf: edited((j) => delete j.extensions.VRMC_vrm),
  noHumanoid: edited((j) => delete j.extensions.VRMC_vrm.humanoid),
  boneNode: edited((j) => (j.extensions.VRMC_vrm.humanoid.humanBones.leftHand.node = 12345)),
  sharedNode: edited((j) => (j.extensions.VRMC_vrm.humanoid.humanBones.rightHand.node = j.extensions.VRMC_vrm.humanoid.humanBones.leftHand.node)),
  missingBones: edited((j) => delete j.extensions.VRMC_vrm.humanoid.humanBones.hips),
};

describe('avatar errors', () => {
  it('the built-in avatar passes the check', () => {
    expect(avatarCheck(makeMannequinVrm({ version: '1.0' }))).toBeUndefined();
    expect(avatarCheck(makeMannequinVrm({ version: '0.x' }))).toBeUndefined();
  });

  it.each(Object.keys(CASES))('%s: the catalogue’s English is the check’s sentence; Japanese has the same values', (name) => {
    const e = avatarCheck(CASES[name]);
    expect(e).toBeInstanceOf(MotionError);
    expect(e!.detail).toBe(`avatar.${name}`);
    const sentence = translate(`errorDetail.${e!.detail}`, e!.params, undefined, 'en');
    expect(avatarProblem(CASES[name])).toBe(sentence);
    // The message is the catalogue's English: the code's words, then the check's sentence.
    expect(e!.message).toBe(`${translate(`error.${e!.code}`, {}, undefined, 'en')} (${sentence})`);
    const ja = translate(`errorDetail.${e!.detail}`, e!.params, undefined, 'ja');
    expect(ja).not.toBe(sentence);
    // Indices are written as the file has them (12345, not 12,345).
    for (const v of Object.values(e!.params)) if (name !== 'unreadable') expect(ja).toContain(String(v));
  });

  it('the studio words an avatar error in its language: code, then detail', () => {
    const e = avatarCheck(CASES.boneNode)!;
    expect(errorText(e)).toBe(`This glTF file cannot be read (${avatarProblem(CASES.boneNode)})`);
    expect(errorText(e)).toBe(e.message);
    setLocale('ja');
    expect(errorText(e)).toBe(
      'この glTF ファイルを読み込めません（VRM 1.0: ヒューマノイドボーン「leftHand」がノード 12345 を指していますが、ファイルのノードは ' + e.params.count + ' 個（0〜' + e.params.last + '）です）',
    );
  });
});
