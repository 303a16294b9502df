/**
 * The smaller-file encoding (issue 18): the Export "Smaller file" checkbox. (The optimize edit's
 * parameters, quantize and fast included, are in edits.ts with every edit.)
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'optimize.smallerFile': 'Smaller file',
    'optimize.smallerFileHelp':
      'Export rotations as 16-bit integers on a compact rig, constant tracks as one key (35-80% smaller on the sample motions; at most 0.00006 rad more error). three.js / three-vrm players read it; UniVRM (Unity) does not.',
  },
  ja: {
    'optimize.smallerFile': 'ファイルを小さく',
    'optimize.smallerFileHelp':
      '回転を16ビット整数で、リグを必要なノードだけに、変化しないトラックを1キーにして書き出します(サンプルのモーションで35〜80%小さく、誤差の増加は最大0.00006 rad)。three.js / three-vrm のプレイヤーは読めますが、UniVRM (Unity) は読めません。',
  },
});
