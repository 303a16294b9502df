/** The Files panel: open, export, the mannequin, opened folders and their files. */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'library.title': 'Files',
    'library.fileInput': 'Open avatar or motion files',
    'library.list': 'Library files',
    'library.folderPath': 'Folder path to open',
    'library.folderPlaceholder': 'e.g. /home/me/motions',
    'library.openFolder': 'Open folder',
    'library.mannequin': 'Mannequin avatar',
    'library.mannequinHelp': 'Show the built-in mannequin avatar again',
    'library.dropHint': 'Drop .vrm, .vrma, .vmd, .vpd or .bvh files anywhere.',
    'library.openEntry': 'Open {file}',
    'library.readFailed': 'Could not read {file}: {detail}',
    'library.folderFailed': 'Could not open the folder: {detail}',
    'library.count': '{count, plural, one {# file} other {# files}}',
  },
  ja: {
    'library.title': 'ファイル',
    'library.fileInput': 'アバターまたはモーションのファイルを開く',
    'library.list': 'ライブラリのファイル',
    'library.folderPath': '開くフォルダのパス',
    'library.folderPlaceholder': '例: /home/me/モーション',
    'library.openFolder': 'フォルダを開く',
    'library.mannequin': 'マネキンのアバター',
    'library.mannequinHelp': '内蔵のマネキンのアバターに戻す',
    'library.dropHint': '.vrm・.vrma・.vmd・.vpd・.bvh ファイルをどこにでもドロップできます。',
    'library.openEntry': '{file} を開く',
    'library.readFailed': '{file} を読み込めませんでした: {detail}',
    'library.folderFailed': 'フォルダを開けませんでした: {detail}',
    'library.count': '{count, plural, other {# 個のファイル}}',
  },
});
