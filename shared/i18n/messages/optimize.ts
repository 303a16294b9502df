/**
 * Optimize and the smaller-file encoding (issue 18): the optimize edit's own parameters
 * (`edit.optimize.param.*` beyond the tolerances) and the Export "Smaller file" checkbox.
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'edit.optimize.param.quantize': 'Smaller file',
    'edit.optimize.param.quantize.help': 'write rotations as 16-bit integers: about a third smaller; three-vrm reads it, UniVRM does not (docs/quantized-vrma.md)',
    'edit.optimize.param.fast': 'Fast',
    'edit.optimize.param.fast.help': 'Douglas-Peucker only: faster, ~10-20% more keys',
    'optimize.smallerFile': 'Smaller file',
    'optimize.smallerFileHelp': 'Export rotations as 16-bit integers (about a third smaller, at most 0.00006 rad more error). three.js / three-vrm players read it; UniVRM (Unity) does not.',
  },
  ja: {
    'edit.optimize.param.quantize': 'ファイルを小さく',
    'edit.optimize.param.quantize.help': '回転を16ビット整数で書き出す: 約3分の1小さくなる。three-vrm は読めるが UniVRM は読めない (docs/quantized-vrma.md)',
    'edit.optimize.param.fast': '高速',
    'edit.optimize.param.fast.help': 'Douglas-Peucker のみ: 速いがキーが10〜20%ほど多く残る',
    'optimize.smallerFile': 'ファイルを小さく',
    'optimize.smallerFileHelp': '回転を16ビット整数で書き出します(約3分の1小さく、誤差の増加は最大0.00006 rad)。three.js / three-vrm のプレイヤーは読めますが、UniVRM (Unity) は読めません。',
  },
});
