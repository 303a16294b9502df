/**
 * Errors reach the user through the catalogue: a MotionError's code (and a StudioApi error's code,
 * which survives IPC and HTTP as a plain object with `code`) becomes the catalogue's plain words in the
 * current language, followed by the core's specific detail (file name, line, what is wrong).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MotionError, type MotionErrorCode } from '../../../shared/errors';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { setLocale } from '../../../shared/i18n';
import { errorText } from '../../../renderer/ui/messages';

afterEach(() => setLocale('en'));

// Every MotionErrorCode, spelled out so a new code fails the type check here until it is listed.
const CODES: Record<MotionErrorCode, true> = {
  NOT_GLB: true,
  TRUNCATED: true,
  BAD_CHUNK: true,
  BAD_JSON: true,
  NOT_VRMA: true,
  BAD_ACCESSOR: true,
  OUT_OF_BOUNDS: true,
  TOO_LARGE: true,
  BAD_DATA: true,
  UNSUPPORTED: true,
  BAD_PARAMETER: true,
  BAD_BVH: true,
  BAD_VMD: true,
  BAD_VPD: true,
  BAD_PMX: true,
  BAD_FBX: true,
  BAD_GLTF: true,
  NO_KEYS: true,
  IS_AVATAR: true,
  NO_HUMANOID: true,
};

describe('errors through the catalogue', () => {
  it('every MotionError code has its message in both languages', () => {
    const missing = Object.keys(CODES).filter((c) => !(`error.${c}` in CATALOGUE.en) || !(`error.${c}` in CATALOGUE.ja));
    expect(missing).toEqual([]);
  });

  it('a MotionError reads as the plain problem plus the core detail, in the current language', () => {
    const e = new MotionError('BAD_VMD', undefined, {}, 'walk.vmd: the file ends inside the bone keyframes');
    expect(errorText(e)).toBe('This VMD motion file cannot be read (walk.vmd: the file ends inside the bone keyframes)');
    setLocale('ja');
    expect(errorText(e)).toBe('この VMD モーションファイルを読み込めません（walk.vmd: the file ends inside the bone keyframes）');
  });

  it('a StudioApi error code that crossed IPC/HTTP (a plain Error with code) is worded too; other errors keep their message', () => {
    const denied = Object.assign(new Error('/etc/passwd is outside what you opened'), { code: 'DENIED' });
    setLocale('ja');
    expect(errorText(denied)).toBe('アクセスが拒否されました（先にスタジオからファイルまたはフォルダを開いてください）（/etc/passwd is outside what you opened）');
    expect(errorText(new Error('plain'))).toBe('plain');
    expect(errorText(Object.assign(new Error('odd'), { code: 'SOMETHING_ELSE' }))).toBe('odd');
    expect(errorText('a string')).toBe('a string');
  });
});
