/**
 * MotionError codes (shared/errors.ts) as the user reads them: `error.<CODE>` says what is wrong in
 * plain words; the core's own message (English, technical: line numbers, bone names) follows as the
 * detail. `errors.*` are the frames around them. The CLI keeps printing the core's English message.
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'error.NOT_GLB': 'This is not a glTF binary (.glb/.vrm/.vrma) file',
    'error.TRUNCATED': 'The file ends too early (cut off or incomplete)',
    'error.BAD_CHUNK': 'The file’s binary chunks are broken',
    'error.BAD_JSON': 'The file’s glTF JSON cannot be read',
    'error.NOT_VRMA': 'This file holds no VRM Animation',
    'error.BAD_ACCESSOR': 'The file’s animation data is malformed',
    'error.OUT_OF_BOUNDS': 'The file points outside its own data',
    'error.TOO_LARGE': 'The file is larger than this studio accepts',
    'error.BAD_DATA': 'The file contains invalid values',
    'error.UNSUPPORTED': 'This kind of file is not supported',
    'error.BAD_PARAMETER': 'A value is out of range',
    'error.BAD_BVH': 'This BVH file cannot be read',
    'error.BAD_VMD': 'This VMD motion file cannot be read',
    'error.BAD_VPD': 'This VPD pose file cannot be read',
    'error.BAD_PMX': 'This PMX model cannot be read',
    'error.NO_HUMANOID': 'No humanoid skeleton was found',
    'errors.withDetail': '{problem} ({detail})',
    'errors.withFile': '{file}: {problem}',
    'errors.unknown': 'Something went wrong: {detail}',
  },
  ja: {
    'error.NOT_GLB': 'glTF バイナリ（.glb/.vrm/.vrma）のファイルではありません',
    'error.TRUNCATED': 'ファイルが途中で切れています（不完全なファイル）',
    'error.BAD_CHUNK': 'ファイルのバイナリチャンクが壊れています',
    'error.BAD_JSON': 'ファイルの glTF JSON を読み込めません',
    'error.NOT_VRMA': 'このファイルには VRM アニメーションが含まれていません',
    'error.BAD_ACCESSOR': 'ファイルのアニメーションデータが壊れています',
    'error.OUT_OF_BOUNDS': 'ファイルが自身のデータの範囲外を参照しています',
    'error.TOO_LARGE': 'このスタジオで扱える大きさを超えるファイルです',
    'error.BAD_DATA': 'ファイルに不正な値が含まれています',
    'error.UNSUPPORTED': 'この種類のファイルには対応していません',
    'error.BAD_PARAMETER': '値が範囲外です',
    'error.BAD_BVH': 'この BVH ファイルを読み込めません',
    'error.BAD_VMD': 'この VMD モーションファイルを読み込めません',
    'error.BAD_VPD': 'この VPD ポーズファイルを読み込めません',
    'error.BAD_PMX': 'この PMX モデルを読み込めません',
    'error.NO_HUMANOID': '人型のスケルトン（ヒューマノイド）が見つかりません',
    'errors.withDetail': '{problem}（{detail}）',
    'errors.withFile': '{file}: {problem}',
    'errors.unknown': '問題が発生しました: {detail}',
  },
});
