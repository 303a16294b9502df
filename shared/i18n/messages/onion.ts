/** The onion skin (issue 13): ghost poses of the avatar before and after the playhead. */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'onion.toggle.label': 'Onion skin',
    'onion.toggle.help': 'Show translucent ghost poses N frames before (blue) and after (orange) the playhead',
    'onion.frames': '± frames',
    'onion.framesHelp': 'How many frames before and after the playhead the ghosts show (1 to 60, at the motion\'s frame rate)',
  },
  ja: {
    'onion.toggle.label': 'オニオンスキン',
    'onion.toggle.help': '再生位置の N フレーム前 (青) と後 (オレンジ) のポーズを半透明のゴーストで表示します',
    'onion.frames': '± フレーム',
    'onion.framesHelp': 'ゴーストを表示する再生位置からの前後のフレーム数 (1〜60、モーションのフレームレート)',
  },
});
