/**
 * What the readers and converters of the core repaired, assumed or left out (shared/warnings.ts):
 * `warning.<detail>` with the real values (bones, nodes, channels, counts), shown in the info panel's
 * reader warnings, the document's report and the conversion reports. The English messages say what
 * the CLI prints (the core's `text`), in the same words. `fileError.<CODE>` words a file-system
 * error (Node's error code) of the conversion worker with the file's name.
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    // VRM Animation reader (shared/vrma/read.ts)
    'warning.vrma.quantized': 'rotations stored as normalized integers (a quantized file) were converted to floats',
    'warning.vrma.specMissing': 'specVersion is missing (a pre-release file); read as 1.0',
    'warning.vrma.specDraft': 'specVersion "{spec}" is a draft; read as 1.0',
    'warning.vrma.specUnknown': 'unknown specVersion {spec}; read as 1.0',
    'warning.vrma.boneNameUnknown': 'humanoid bone "{bone}" is not a VRM 1.0 bone name; ignored',
    'warning.vrma.boneNodeMissing': 'humanoid bone {bone} points at node {node}, which does not exist; ignored',
    'warning.vrma.boneNodeShared': 'humanoid bone {bone} shares node {node} with {other}; ignored',
    'warning.vrma.noHumanBones': 'the humanoid section has no humanBones; no bones are mapped',
    'warning.vrma.expressionsNotObject': 'expressions.{kind} is not an object; ignored',
    'warning.vrma.expressionNodeBad': 'expression {expression} points at node {node}, which is missing or already used; ignored',
    'warning.vrma.lookAtNodeBad': 'lookAt points at node {node}, which is missing or already used; ignored',
    'warning.vrma.assetVersionMissing': 'the glTF asset version was missing; set to 2.0',
    'warning.vrma.geometryDropped': 'dropped {removed} (a motion file carries no geometry)',
    'warning.vrma.extensionNotListed': '{extension} was not listed in extensionsUsed; added',
    'warning.vrma.noAnimation': 'the file has no animation',
    'warning.vrma.severalAnimations': 'the file has {count} animations; only the first is used',
    'warning.vrma.channelNoNode': 'animation channel {channel} targets no node ({path}); ignored',
    'warning.vrma.channelWeights': 'animation channel {channel} animates morph weights of node {node}, which a VRM Animation cannot use; ignored',
    'warning.vrma.channelTwice': 'animation channel {channel} animates node {node} {path} a second time; ignored',
    'warning.vrma.channelBoneScale': 'animation channel {channel} scales humanoid bone {bone}, which VRM Animation does not allow; ignored',
    'warning.vrma.channelExpressionPath': 'animation channel {channel} animates {path} of expression {expression}, whose weight is its translation; ignored',
    'warning.vrma.channelLookAtScale': 'animation channel {channel} scales the lookAt node; ignored',
    'warning.vrma.samplerNoValidTime': 'sampler {sampler}: no key has a valid time; channel ignored',
    'warning.vrma.samplerTimesDropped': 'sampler {sampler}: {count} key(s) with negative or non-increasing times were dropped',
    'warning.vrma.lookAtLegacyDropped': 'the lookAt node has both translation and rotation tracks; the legacy translation track was dropped',
    'warning.vrma.lookAtGazePoint': 'the lookAt track was a gaze point (pre-release VRMA translation); converted to the 1.0 rotation',
    // FBX
    'warning.fbx.leftHanded': 'the file uses a left-handed axis system; mirrored on X',
    'warning.fbx.axesNotDistinct': 'GlobalSettings axes (up {up}, front {front}, coord {coord}) are not three different axes; assumed Y up',
    'warning.fbx.unitScale': 'UnitScaleFactor {value} is not a positive number; assumed centimetres',
    'warning.fbx.ownAncestor': 'model "{model}" is its own ancestor; cut from its parent',
    'warning.fbx.takeUnknownModels': 'take "{take}" animates {count} model(s) the file does not define: {models}',
    'warning.fbx.noBindPose': 'the file has no bind pose; its default pose is taken as the rest',
    'warning.fbx.blendShapesSkipped': '{count} blend shape(s) with no VRM expression preset skipped: {names}',
    'warning.convert.scaleDropped': 'VRMA has no scale: {count} scale track(s) dropped; the rig scales from {from} to {to} over {seconds} s, which the VRMA plays at its rest size',
    'warning.fbx.layersBlended': 'take "{take}": {count} animation layers blended ({layers})',
    'warning.fbx.take':
      'FBX take "{take}": {frames} frames at {fps} fps, {joints} animated joints, skeleton found by {method, select, structure {structure} names+structure {names+structure} other {names}}',
    'warning.fbx.takesWithoutKeys': 'takes with no keys skipped: {takes}',
    // Humanoid recognition and retargeting (BVH, FBX, glTF)
    'warning.humanoid.notBelowChain': 'joint "{joint}" is named like {bone} but is not below the joints before it; ignored',
    'warning.humanoid.hipsWhereLegsPart': 'the legs branch above "{joint}": "{hips}" is taken as the hips',
    'warning.humanoid.frontUnknown': 'could not tell the front from the feet; assumed the capture faces +Z',
    'warning.humanoid.noHead': 'no head chain found above the arms',
    'warning.humanoid.helpersIgnored': 'IK/control helper joints ignored: {names}{more, plural, =0 {} other { and # more}}',
    'warning.humanoid.byStructure': 'bones not recognised by name ({bones}) were found from the skeleton’s shape',
    'warning.humanoid.hipsHeight':
      'the character’s hips stand {metres} m above its feet at the scale the file gives it; players fit the motion to the avatar’s size, but if the character is not meant to be that size, apply its scale in the program that exported it (Blender: Apply Scale, or the exporter’s Scale) and export again',
    'warning.humanoid.feetLifted': 'lifted {count} frame(s) where a foot went below the floor',
    'warning.humanoid.jointsFolded': 'joints folded into their mapped children: {names}{more, plural, =0 {} other { and # more}}',
    'warning.humanoid.unitUnmeasured': 'could not measure the skeleton (no legs); assumed centimetres',
    'warning.humanoid.unitGuessed': 'skeleton size {size} fits no usual unit; assumed {unit, select, m {metres} mm {millimetres} inch {inches} cmu {CMU units} other {centimetres}}',
    // BVH
    'warning.bvh.extraData': 'BVH line {line}: data after the {frames} declared frames was ignored',
    'warning.bvh.summary':
      'BVH: {frames} frames at {fps} fps, in {unit, select, m {metres} mm {millimetres} inch {inches} cmu {CMU units} other {centimetres}}, skeleton found by {method, select, structure {structure} names+structure {names+structure} other {names}}',
    // MMD
    'warning.mmd.noModel': 'no .pmx given: assumed the standard MMD skeleton (pass the model for its exact leg lengths and arm angles)',
    'warning.mmd.nonHumanoidBones':
      '{count, plural, one {# keyed non-humanoid bone} other {# keyed non-humanoid bones}} (hair, clothes, helpers) not converted: {names}{more, plural, =0 {} other {, …}}',
    'warning.mmd.bonesNotInModel': 'keys for {bones} ignored: the model has no such bone',
    'warning.mmd.modelMismatch':
      'the model "{model}" does not fit this motion: it has {found} of the motion\'s {keyed} keyed bones ({percent}%, {needed}% needed; missing {missing}), so the motion was made for another model; converted with the standard MMD skeleton',
    'warning.mmd.expressionsOnly': 'the motion has no body keys: written as an expressions-only animation',
    'warning.mmd.footShort':
      "the {side, select, left {left} other {right}} foot cannot reach its IK target on {frames, plural, one {# frame} other {# frames}} ({reason, select, stretched {the leg is fully stretched} other {the knee's limits stop it}}); the foot stays as far as the leg reaches",
    'warning.mmd.morphsSkipped': '{count, plural, one {# morph} other {# morphs}} with no VRM expression preset skipped: {names}{more, plural, =0 {} other {, … (+# more)}}',
    'warning.mmd.curveKeys':
      "kept the VMD's keys and their curves as Bézier keys: {keys, plural, one {# bone key} other {# bone keys}} instead of {everyFrame} on every frame, {inserted, plural, one {# added} other {# added}} where one Bézier key could not hold an MMD curve",
    'warning.mmd.ikPerFrame': '{count, plural, one {# bone track keeps} other {# bone tracks keep}} a key on every frame (leg IK is solved per frame): {bones}',
    // glTF
    'warning.gltf.noSkin': 'the file has no skin; its node hierarchy is taken as the skeleton and its default pose as the rest',
    'warning.gltf.expressionsOnly': 'the animation moves no joints, only morph weights: written as an expressions-only animation',
    'warning.gltf.morphsUnnamed': 'morph targets without names (mesh.extras.targetNames) skipped on {nodes}',
    'warning.gltf.animation':
      'glTF animation "{animation}": {keys} keys ({fps} fps), {joints} animated joints{ignored, plural, =0 {} other {, # other animated nodes ignored}}, skeleton found by {method, select, structure {structure} names+structure {names+structure} other {names}}',
    // Join
    'warning.join.droppedBones': 'join: dropped tracks of bones the first motion lacks: {bones}',
    'warning.join.droppedOther': 'join: dropped {count} non-humanoid track(s) of the second motion',
    'warning.join.addedFace': 'join: the first motion had no {names}; added from the second motion',
    // File-system errors of the conversion worker (Node error codes)
    'fileError.ENOENT': '{file}: no such file',
    'fileError.EACCES': '{file}: permission denied',
    'fileError.EPERM': '{file}: operation not permitted',
    'fileError.EISDIR': '{file}: is a directory',
    'fileError.ENOTDIR': '{file}: a part of the path is not a folder',
    'fileError.ENOSPC': '{file}: no space left on the disk',
    'fileError.EEXIST': '{file} already exists',
    'fileError.EROFS': '{file}: the disk is read-only',
    'fileError.EBUSY': '{file}: the file is busy (used by another program)',
    'fileError.EMFILE': '{file}: too many files are open',
    'fileError.ENAMETOOLONG': '{file}: the name is too long',
    'fileError.other': '{file}: the file could not be accessed ({errno})',
    'fileError.write': 'cannot write {detail}',
    // Convert Folder's summary
    'warnings.summaryNotes': 'Notes of the converted files ({count})',
  },
  ja: {
    'warning.vrma.quantized': '正規化整数で保存された回転（量子化されたファイル）を浮動小数点に変換しました',
    'warning.vrma.specMissing': 'specVersion がありません（正式版より前のファイル）。1.0 として読み込みました',
    'warning.vrma.specDraft': 'specVersion「{spec}」はドラフト版です。1.0 として読み込みました',
    'warning.vrma.specUnknown': '不明な specVersion {spec} です。1.0 として読み込みました',
    'warning.vrma.boneNameUnknown': 'ヒューマノイドボーン「{bone}」は VRM 1.0 のボーン名ではありません。無視しました',
    'warning.vrma.boneNodeMissing': 'ヒューマノイドボーン {bone} が存在しないノード {node} を指しています。無視しました',
    'warning.vrma.boneNodeShared': 'ヒューマノイドボーン {bone} がノード {node} を {other} と共有しています。無視しました',
    'warning.vrma.noHumanBones': 'humanoid セクションに humanBones がありません。ボーンは割り当てられていません',
    'warning.vrma.expressionsNotObject': '表情の expressions.{kind} がオブジェクトではありません。無視しました',
    'warning.vrma.expressionNodeBad': '表情 {expression} が指すノード {node} は存在しないか、すでに使われています。無視しました',
    'warning.vrma.lookAtNodeBad': '視線（lookAt）が指すノード {node} は存在しないか、すでに使われています。無視しました',
    'warning.vrma.assetVersionMissing': 'glTF の asset バージョンがありませんでした。2.0 にしました',
    'warning.vrma.geometryDropped': '{removed} を取り除きました（モーションファイルは形状を持ちません）',
    'warning.vrma.extensionNotListed': '{extension} が extensionsUsed にありませんでした。追加しました',
    'warning.vrma.noAnimation': 'ファイルにアニメーションがありません',
    'warning.vrma.severalAnimations': 'ファイルに {count} 個のアニメーションがあります。最初のものだけを使います',
    'warning.vrma.channelNoNode': 'アニメーションチャンネル {channel} の対象ノードがありません（{path}）。無視しました',
    'warning.vrma.channelWeights': 'アニメーションチャンネル {channel} はノード {node} のモーフウェイトを動かしていますが、VRM アニメーションでは使えません。無視しました',
    'warning.vrma.channelTwice':
      'アニメーションチャンネル {channel} はノード {node} の{path, select, rotation {回転} translation {移動} scale {スケール} other {{path}}}を二度目に動かしています。無視しました',
    'warning.vrma.channelBoneScale': 'アニメーションチャンネル {channel} がヒューマノイドボーン {bone} を拡大縮小しています。VRM アニメーションでは許されていません。無視しました',
    'warning.vrma.channelExpressionPath':
      'アニメーションチャンネル {channel} が表情 {expression} の{path, select, rotation {回転} translation {移動} scale {スケール} other {{path}}}を動かしています（表情のウェイトは移動で表します）。無視しました',
    'warning.vrma.channelLookAtScale': 'アニメーションチャンネル {channel} が視線（lookAt）のノードを拡大縮小しています。無視しました',
    'warning.vrma.samplerNoValidTime': 'サンプラー {sampler}: 正しい時刻のキーがありません。チャンネルを無視しました',
    'warning.vrma.samplerTimesDropped': 'サンプラー {sampler}: 時刻が負または増加していない {count} 個のキーを取り除きました',
    'warning.vrma.lookAtLegacyDropped': '視線（lookAt）のノードに移動と回転の両方のトラックがあります。旧形式の移動トラックを取り除きました',
    'warning.vrma.lookAtGazePoint': '視線（lookAt）のトラックは注視点（正式版より前の VRMA の移動）でした。1.0 の回転に変換しました',
    'warning.fbx.leftHanded': 'ファイルは左手系の座標軸を使っています。X 方向に左右反転しました',
    'warning.fbx.axesNotDistinct': 'GlobalSettings の軸（上 {up}、前 {front}、座標 {coord}）が三つの異なる軸になっていません。Y を上とみなしました',
    'warning.fbx.unitScale': 'UnitScaleFactor {value} が正の数ではありません。センチメートルとみなしました',
    'warning.fbx.ownAncestor': 'モデル「{model}」が自分自身の祖先になっています。親から切り離しました',
    'warning.fbx.takeUnknownModels': 'テイク「{take}」がファイルで定義されていない {count} 個のモデルを動かしています: {models}',
    'warning.fbx.noBindPose': 'ファイルにバインドポーズがありません。既定のポーズを基本姿勢としました',
    'warning.fbx.blendShapesSkipped': 'VRM 表情プリセットに当たらない {count} 個のブレンドシェイプを飛ばしました: {names}',
    'warning.convert.scaleDropped':
      'VRMA にはスケールがありません: {count} 個のスケールトラックを除きました。リグは {seconds} 秒で {from} から {to} まで拡大縮小しますが、VRMA ではレストの大きさで再生されます',
    'warning.fbx.layersBlended': 'テイク「{take}」: {count} 個のアニメーションレイヤーを合成しました（{layers}）',
    'warning.fbx.take':
      'FBX テイク「{take}」: {frames} フレーム、{fps} fps、動くジョイント {joints} 個、骨格は{method, select, structure {形から} names+structure {名前と形から} other {名前から}}認識しました',
    'warning.fbx.takesWithoutKeys': 'キーのないテイクを飛ばしました: {takes}',
    'warning.humanoid.notBelowChain': 'ジョイント「{joint}」は {bone} のような名前ですが、前のジョイントの下にありません。無視しました',
    'warning.humanoid.hipsWhereLegsPart': '脚が「{joint}」より上で分かれています。「{hips}」を腰（hips）としました',
    'warning.humanoid.frontUnknown': '足から前方向を判断できませんでした。+Z 方向を向いているとみなしました',
    'warning.humanoid.noHead': '腕の上に頭のつながりが見つかりません',
    'warning.humanoid.helpersIgnored': 'IK・コントロール用の補助ジョイントを無視しました: {names}{more, plural, =0 {} other {、ほか # 個}}',
    'warning.humanoid.byStructure': '名前で認識できなかったボーン（{bones}）を骨格の形から見つけました',
    'warning.humanoid.hipsHeight':
      'ファイルが与える大きさでは、キャラクターの腰は足から {metres} m の高さにあります。再生時にはモーションがアバターの大きさに合わせられますが、この大きさが意図したものでなければ、書き出したソフトでスケールを適用して（Blender なら「スケールを適用」またはエクスポーターの「スケール」）もう一度書き出してください',
    'warning.humanoid.feetLifted': '足が床より下に入った {count} フレームを持ち上げました',
    'warning.humanoid.jointsFolded': '割り当てたボーンの子に畳み込んだジョイント: {names}{more, plural, =0 {} other {、ほか # 個}}',
    'warning.humanoid.unitUnmeasured': '骨格の大きさを測れませんでした（脚がありません）。センチメートルとみなしました',
    'warning.humanoid.unitGuessed':
      '骨格の大きさ {size} はどの一般的な単位にも合いません。{unit, select, m {メートル} mm {ミリメートル} inch {インチ} cmu { CMU の単位} other {センチメートル}}とみなしました',
    'warning.bvh.extraData': 'BVH の {line} 行目: 宣言された {frames} フレームより後のデータを無視しました',
    'warning.bvh.summary':
      'BVH: {frames} フレーム、{fps} fps、単位は{unit, select, m {メートル} mm {ミリメートル} inch {インチ} cmu { CMU の単位} other {センチメートル}}、骨格は{method, select, structure {形から} names+structure {名前と形から} other {名前から}}認識しました',
    'warning.mmd.noModel': '.pmx が指定されていません。標準の MMD 骨格とみなしました（正確な脚の長さと腕の角度にはモデルを指定してください）',
    'warning.mmd.nonHumanoidBones': 'キーのあるヒューマノイド以外のボーン {count} 個（髪、服、補助ボーン）は変換しません: {names}{more, plural, =0 {} other {、…}}',
    'warning.mmd.bonesNotInModel': '{bones} のキーを無視しました: モデルにそのボーンがありません',
    'warning.mmd.modelMismatch':
      'モデル「{model}」はこのモーションに合いません: モーションがキーを打つ {keyed} 個のボーンのうち {found} 個しかありません（{percent}%、必要なのは {needed}%。足りないボーン: {missing}）。別のモデル用のモーションなので、標準の MMD 骨格で変換しました',
    'warning.mmd.expressionsOnly': 'モーションに体のキーがありません。表情だけのアニメーションとして書き出します',
    'warning.mmd.footShort':
      '{side, select, left {左} other {右}}足が {frames} フレームで IK の目標に届きません（{reason, select, stretched {脚が伸びきっています} other {ひざの可動範囲で止まります}}）。足は脚の届くところまで伸びます',
    'warning.mmd.morphsSkipped': 'VRM 表情プリセットに当たらない {count} 個のモーフを飛ばしました: {names}{more, plural, =0 {} other {、…（ほか # 個）}}',
    'warning.mmd.curveKeys':
      'VMD のキーと補間曲線をベジェのキーとして残しました: 毎フレームの {everyFrame} 個に代えてボーンのキー {keys} 個。1 つのベジェで MMD の曲線を保てない所に {inserted} 個を足しました',
    'warning.mmd.ikPerFrame': '{count} 本のボーントラックは毎フレームにキーを残します（足 IK はフレームごとに解くため）: {bones}',
    'warning.gltf.noSkin': 'ファイルにスキンがありません。ノードの階層を骨格、既定のポーズを基本姿勢としました',
    'warning.gltf.expressionsOnly': 'このアニメーションは関節を動かさず、モーフの重みだけを動かします。表情だけのアニメーションとして書き出します',
    'warning.gltf.morphsUnnamed': '名前のないモーフターゲット（mesh.extras.targetNames がない）を飛ばしました: {nodes}',
    'warning.gltf.animation':
      'glTF アニメーション「{animation}」: {keys} キー（{fps} fps）、動くジョイント {joints} 個{ignored, plural, =0 {} other {、ほかの動くノード # 個は無視}}、骨格は{method, select, structure {形から} names+structure {名前と形から} other {名前から}}認識しました',
    'warning.join.droppedBones': '結合: 最初のモーションにないボーンのトラックを取り除きました: {bones}',
    'warning.join.droppedOther': '結合: 二つ目のモーションのヒューマノイド以外のトラック {count} 本を取り除きました',
    'warning.join.addedFace': '結合: 一つ目のモーションになかった {names} を二つ目のモーションから追加しました',
    'fileError.ENOENT': '{file}: ファイルがありません',
    'fileError.EACCES': '{file}: アクセスが拒否されました',
    'fileError.EPERM': '{file}: この操作は許可されていません',
    'fileError.EISDIR': '{file}: ファイルではなくフォルダです',
    'fileError.ENOTDIR': '{file}: パスの途中がフォルダではありません',
    'fileError.ENOSPC': '{file}: ディスクの空き容量がありません',
    'fileError.EEXIST': '{file} はすでにあります',
    'fileError.EROFS': '{file}: ディスクは読み取り専用です',
    'fileError.EBUSY': '{file}: ファイルは使用中です（ほかのプログラムが使っています）',
    'fileError.EMFILE': '{file}: 開いているファイルが多すぎます',
    'fileError.ENAMETOOLONG': '{file}: 名前が長すぎます',
    'fileError.other': '{file}: ファイルにアクセスできませんでした（{errno}）',
    'fileError.write': '書き込めません: {detail}',
    'warnings.summaryNotes': '変換したファイルの注記（{count}）',
  },
});
