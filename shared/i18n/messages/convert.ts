/**
 * Converting in the studio (issue 14): the take picker of FBX/glTF files, a VRM that also carries
 * animations, MMD models (.pmx/.pmd) used for the .vmd/.vpd of their folder, takes in the library
 * and Convert Folder's formats.
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'convert.takes.title': 'Choose a take',
    'convert.takes.text': '{file} holds {count, plural, one {# take} other {# takes}}. Which one should open?',
    'convert.takes.list': 'Takes of {file}',
    'convert.takes.name': 'Take',
    'convert.takes.duration': 'Duration',
    'convert.takes.fps': 'fps',
    'convert.takes.keys': 'Keys',
    'convert.takes.noKeys': 'no keys',
    'convert.takes.open': 'Open take',
    'convert.takes.cancel': 'Cancel',
    'convert.takes.opened': '{file}: take "{take}" converted from {format} to VRM Animation ({count, plural, one {# take} other {# takes}} in the file)',
    'convert.use.title': 'Avatar or motion?',
    'convert.use.text': '{file} is a VRM avatar that also carries {count, plural, one {# animation} other {# animations}}. Use it as the avatar, or open its animations as a motion?',
    'convert.use.avatar': 'Use as avatar',
    'convert.use.motion': 'Open as motion',
    'convert.use.cancel': 'Cancel',
    'convert.mmd.modelSet': 'MMD model {model} is now used for the MMD motions of its folder',
    'convert.mmd.modelLoose': 'MMD model {model} is now used for MMD motions',
    'convert.mmd.reconverted': '{file} converted again with the MMD model {model}',
    'convert.mmd.withModel': '{file} was converted from {format} to VRM Animation with the MMD model {model}',
    'convert.mmd.modelFailed': 'Could not use the MMD model {model}: {detail}',
    'convert.mmd.noModel':
      "{file}: no MMD model in its folder, so the standard MMD skeleton was assumed. Open or drop the model's .pmx/.pmd (or keep it beside the .vmd in an opened folder) to convert it with the model's exact leg lengths and arm angles.",
    'convert.library.takes': '{count, plural, one {# take} other {# takes}}',
    'convert.library.model': 'MMD model',
    'convert.folder.needsFolder': 'Open a folder first: Convert Folder converts the .vmd, .vpd, .bvh, .fbx, .glb and .gltf files of the opened folder.',
    'convert.folder.text':
      'Convert every .vmd, .vpd, .bvh, .fbx, .glb and .gltf motion to a .vrma beside it (NAME.TAKE.vrma for each take of a file with several; .vmd and .vpd with the MMD model of their folder), in:',
  },
  ja: {
    'convert.takes.title': 'テイクを選択',
    'convert.takes.text': '{file} には {count, plural, other {# 個のテイク}}があります。どれを開きますか？',
    'convert.takes.list': '{file} のテイク',
    'convert.takes.name': 'テイク',
    'convert.takes.duration': '長さ',
    'convert.takes.fps': 'fps',
    'convert.takes.keys': 'キー',
    'convert.takes.noKeys': 'キーなし',
    'convert.takes.open': 'テイクを開く',
    'convert.takes.cancel': 'キャンセル',
    'convert.takes.opened': '{file}: テイク「{take}」を {format} から VRM アニメーションに変換しました (ファイル内に {count, plural, other {# 個のテイク}})',
    'convert.use.title': 'アバターかモーションか',
    'convert.use.text': '{file} は {count, plural, other {# 個のアニメーション}}を含む VRM アバターです。アバターとして使うか、アニメーションをモーションとして開くかを選んでください。',
    'convert.use.avatar': 'アバターとして使う',
    'convert.use.motion': 'モーションとして開く',
    'convert.use.cancel': 'キャンセル',
    'convert.mmd.modelSet': 'MMD モデル {model} を、同じフォルダの MMD モーションに使います',
    'convert.mmd.modelLoose': 'MMD モデル {model} を MMD モーションに使います',
    'convert.mmd.reconverted': '{file} を MMD モデル {model} で変換し直しました',
    'convert.mmd.withModel': '{file} を MMD モデル {model} を使って {format} から VRM アニメーションに変換しました',
    'convert.mmd.modelFailed': 'MMD モデル {model} を使えませんでした: {detail}',
    'convert.mmd.noModel':
      '{file}: フォルダに MMD モデルがないため、標準の MMD ボーン構造を仮定しました。モデルの .pmx/.pmd を開くかドロップする (または開いたフォルダで .vmd の隣に置く) と、モデルの正確な脚の長さと腕の角度で変換します。',
    'convert.library.takes': '{count, plural, other {# テイク}}',
    'convert.library.model': 'MMD モデル',
    'convert.folder.needsFolder': '先にフォルダを開いてください。「フォルダを変換」は開いたフォルダの .vmd、.vpd、.bvh、.fbx、.glb、.gltf ファイルを変換します。',
    'convert.folder.text':
      '次のフォルダのすべての .vmd、.vpd、.bvh、.fbx、.glb、.gltf モーションを、隣に .vrma として変換します (複数のテイクを持つファイルはテイクごとに NAME.TAKE.vrma、.vmd と .vpd は同じフォルダの MMD モデルを使用):',
  },
});
