/**
 * Exports out of VRM Animation (shared/export/): what a format could not carry (`warning.export.*`,
 * the export report) and the exporters' errors (`errorDetail.export.*`).
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'warning.export.bonesNotCarried': '{format}: {count, plural, one {# animated bone} other {# animated bones}} with no bone in the target skeleton left out: {bones}',
    'warning.export.expressionsNotCarried': '{format}: {count, plural, one {# expression} other {# expressions}} the format cannot carry left out: {names}',
    'warning.export.gazeNoLookAt': '{format}: the gaze (lookAt) track is not carried: the avatar declares no lookAt',
    'warning.export.gazeNoEyes': '{format}: the gaze (lookAt) track is not carried: the target skeleton has no eye bones',
    'warning.export.gazeExpressions': '{format}: the gaze (lookAt) track is not carried: the avatar looks with expressions, which {format} cannot carry',
    'warning.export.namesCut': '{format}: {count, plural, one {# name} other {# names}} longer than the format allows cut to fit: {names}',
    'warning.export.fpsFixed': '{format}: written at {fps} fps, the only rate the format has (asked for {asked})',
    'warning.export.standardSkeleton': '{format}: no model given: written for the standard skeleton',
    'warning.export.ikCleared': '{format}: leg IK switched off (keys are FK); pass --ik legs to keep the IK editable',
    'errorDetail.export.fps': 'fps must be a number from 1 to 240, got {value}',
    'errorDetail.export.tooLong': 'the motion would need {frames} frames, more than the {max} an export may hold',
    'errorDetail.export.badOption': 'export option {option} must be one of {allowed}, got {value}',
    'errorDetail.export.noBody': 'the motion has no humanoid bone the target skeleton can carry and nothing else to write',
    'errorDetail.export.noAvatar': 'a {format} export needs an avatar (.vrm) to bake the motion onto',
    'errorDetail.export.externalBuffers': 'the avatar keeps its data in external or several buffers; export needs a self-contained .vrm/.glb',
  },
  ja: {
    'warning.export.bonesNotCarried': '{format}: 書き出し先の骨格にないため、動くボーン {count} 本を省きました: {bones}',
    'warning.export.expressionsNotCarried': '{format}: この形式で持てない表情 {count} 個を省きました: {names}',
    'warning.export.gazeNoLookAt': '{format}: 視線（lookAt）のトラックは書き出せません: アバターに lookAt の設定がありません',
    'warning.export.gazeNoEyes': '{format}: 視線（lookAt）のトラックは書き出せません: 書き出し先の骨格に目のボーンがありません',
    'warning.export.gazeExpressions': '{format}: 視線（lookAt）のトラックは書き出せません: このアバターは表情で視線を動かしますが、{format} は表情を持てません',
    'warning.export.namesCut': '{format}: 形式の上限より長い名前 {count} 個を切り詰めました: {names}',
    'warning.export.fpsFixed': '{format}: この形式が持てる唯一のフレームレート {fps} fps で書き出しました（指定は {asked}）',
    'warning.export.standardSkeleton': '{format}: モデルの指定がないため、標準の骨格向けに書き出しました',
    'warning.export.ikCleared': '{format}: 足IK をオフにしました（キーは FK）。IK を編集できるように残すには --ik legs を指定してください',
    'errorDetail.export.fps': 'fps は 1 から 240 の数値にしてください（指定値 {value}）',
    'errorDetail.export.tooLong': 'このモーションには {frames} フレームが必要で、書き出せる上限 {max} を超えます',
    'errorDetail.export.badOption': '書き出しの設定 {option} は {allowed} のいずれかにしてください（指定値 {value}）',
    'errorDetail.export.noBody': 'このモーションには書き出し先の骨格で表せる人型のボーンも、ほかに書き出すものもありません',
    'errorDetail.export.noAvatar': '{format} の書き出しには、モーションを焼き込むアバター（.vrm）が必要です',
    'errorDetail.export.externalBuffers': 'アバターのデータが外部ファイルや複数のバッファーにあります。書き出しには 1 ファイルにまとまった .vrm/.glb が必要です',
  },
});
