/**
 * The glossary: how the studio says each term in Japanese, in the words MMD, VRoid and VRM users
 * already know. Review translations against it. Entries with `check` are enforced by
 * tests/unit/i18n/glossary.test.ts: every English message that uses the term (word match, any case)
 * must use the Japanese term (or its stem) in its Japanese message.
 */
export interface GlossaryEntry {
  /** The English term as the UI uses it. */
  readonly en: string;
  /** The Japanese term. */
  readonly ja: string;
  /** Why this word, or where it comes from (MMD, VRoid, VRM spec). */
  readonly note?: string;
  /** Enforce: English messages matching this (case-insensitive, whole words) must contain `jaStem ?? ja`. */
  readonly check?: RegExp;
  /** The part of `ja` a message must contain (書き出 matches 書き出し and 書き出す). */
  readonly jaStem?: string;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  { en: 'motion', ja: 'モーション', note: 'MMD: モーション (.vmd). Never 動き/動作 in labels.', check: /\bmotions?\b/i },
  { en: 'pose', ja: 'ポーズ', note: 'MMD: ポーズ (.vpd)', check: /\bposes?\b/i },
  { en: 'export', ja: '書き出し', note: 'MMD/VRoid: 書き出し (not エクスポート)', check: /\bexport(s|ed|ing)?\b/i, jaStem: '書き出' },
  { en: 'import / open', ja: '読み込み / 開く', note: '読み込み for reading a file in, 開く for the Open command' },
  { en: 'delete range', ja: '範囲を削除', check: /\bdelete range\b/i },
  { en: 'range', ja: '範囲', note: 'the IN/OUT selection on the timeline', check: /\branges?\b/i },
  { en: 'IN / OUT', ja: 'IN 点 / OUT 点', note: 'video-editing terms Japanese editors use as is' },
  { en: 'mirror', ja: '左右反転', note: 'MMD: 左右反転', check: /\bmirror(ed|s)?\b/i },
  { en: 'reduce keys', ja: 'キーの間引き', note: 'MMD: キーフレームの間引き', check: /\breduce keys\b/i },
  { en: 'key / keyframe', ja: 'キー / キーフレーム', note: 'MMD: キーフレーム; counts say キー数' },
  { en: 'frame', ja: 'フレーム', note: 'also a verb in English (Frame avatar): not checked' },
  { en: 'bone', ja: 'ボーン', note: 'MMD/VRoid: ボーン; VRM humanoid bone names stay as in the spec (hips, leftUpperArm)', check: /\bbones?\b/i },
  { en: 'avatar', ja: 'アバター', check: /\bavatars?\b/i },
  { en: 'model', ja: 'モデル', note: 'an MMD model (.pmx/.pmd)' },
  { en: 'expression', ja: '表情', note: 'VRM expressions; MMD calls them モーフ', check: /\bexpressions?\b/i },
  { en: 'morph', ja: 'モーフ', note: 'MMD morphs (表情モーフ)' },
  { en: 'look at', ja: '視線', note: 'VRM lookAt' },
  { en: 'timeline', ja: 'タイムライン', check: /\btimeline\b/i },
  { en: 'loop', ja: 'ループ', check: /\bloop(s|ed|ing)?\b/i },
  { en: 'blend', ja: 'ブレンド', note: 'the cross-fade when joining two pieces', check: /\bblend\b/i },
  { en: 'cut', ja: '切り取り', note: 'cutting a piece out of a motion' },
  { en: 'join', ja: '結合', note: 'joining two motions one after the other' },
  { en: 'trim', ja: 'トリム', note: 'keep only the range' },
  { en: 'resample', ja: 'リサンプル' },
  { en: 'retarget', ja: 'リターゲット', note: 'moving a motion to another skeleton' },
  { en: 'convert', ja: '変換', check: /\bconvert(s|ed|ing)?\b/i },
  { en: 'undo', ja: '元に戻す', check: /\bundo\b/i },
  { en: 'redo', ja: 'やり直し', check: /\bredo\b/i, jaStem: 'やり直' },
  { en: 'save', ja: '保存', check: /\bsave\b/i },
  { en: 'playback / play', ja: '再生' },
  { en: 'falloff', ja: '減衰', note: 'how a pose edit fades out in time', check: /\bfalloff\b/i },
  { en: 'hips', ja: '腰', note: 'VRM hips; MMD センター/下半身 drive it' },
  { en: 'center (MMD)', ja: 'センター', note: 'MMD bone name, kept in Japanese' },
  { en: 'root (MMD)', ja: '全ての親', note: 'MMD bone name, kept in Japanese' },
  { en: 'leg IK', ja: '足ＩＫ', note: 'MMD bone name 左足ＩＫ/右足ＩＫ (full-width IK)' },
  { en: 'IK', ja: 'IK' },
  { en: 'fingers', ja: '指' },
  { en: 'bedroom', ja: 'ベッドルーム', check: /\bbedroom\b/i },
  { en: 'turn over', ja: '寝返り', note: 'the sleeping avatar turning to another side', check: /\bturn(s|ing)? over\b/i, jaStem: '寝返り' },
  { en: 'sleeping pose', ja: '寝姿', note: 'a one-frame pose the avatar sleeps in', check: /\bsleeping poses?\b/i },
  { en: 'mannequin', ja: 'マネキン', note: 'the built-in stand-in avatar', check: /\bmannequin\b/i },
  { en: 'file', ja: 'ファイル' },
  { en: 'folder', ja: 'フォルダ', note: 'フォルダ (not フォルダー), as Windows and VRoid say', check: /\bfolders?\b/i },
];
