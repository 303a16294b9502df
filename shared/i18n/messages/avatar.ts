/**
 * Loading avatars (issue 14): what a compressed avatar's loader reports beyond success (textures it
 * could not decode; the avatar is shown without them).
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'avatar.texturesMissing': 'Avatar {file} loaded without {count, plural, one {# texture} other {# textures}}: {detail}',
  },
  ja: {
    'avatar.texturesMissing': 'アバター {file} を読み込みましたが、テクスチャ {count} 枚を表示できません: {detail}',
  },
});
