/** The onion skin (issue 13): ghost poses of the avatar before and after the playhead. */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'onion.toggle.label': 'Onion skin',
    'onion.toggle.help': 'Show translucent ghost poses a moment before (blue) and after (orange) the playhead',
    'onion.seconds': '± s',
    'onion.secondsHelp': 'How many seconds before and after the playhead the ghosts show (0.02 to 2 s, the same at any frame rate)',
  },
  ja: {
    'onion.toggle.label': 'オニオンスキン',
    'onion.toggle.help': '再生位置の少し前 (青) と後 (オレンジ) のポーズを半透明のゴーストで表示します',
    'onion.seconds': '± 秒',
    'onion.secondsHelp': 'ゴーストを表示する再生位置からの前後の秒数 (0.02〜2 秒、フレームレートによらず同じ)',
  },
});
