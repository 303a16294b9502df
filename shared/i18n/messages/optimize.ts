/**
 * The smaller-file encoding (issue 18): the Export "Smaller file" checkbox. (The optimize edit's
 * parameters, quantize and fast included, are in edits.ts with every edit.)
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'optimize.smallerFile': 'Smaller file',
    'optimize.smallerFileHelp': 'Export rotations as 16-bit integers (a third to a half smaller; at most 0.00006 rad more error). three.js / three-vrm players read it; UniVRM (Unity) does not.',
  },
  ja: {
    'optimize.smallerFile': 'ファイルを小さく',
    'optimize.smallerFileHelp': '回転を16ビット整数で書き出します(3分の1〜半分ほど小さく、誤差の増加は最大0.00006 rad)。three.js / three-vrm のプレイヤーは読めますが、UniVRM (Unity) は読めません。',
  },
});
