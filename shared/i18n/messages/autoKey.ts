/** Auto-key, the record button (renderer/app/autoKey.ts), issue 27. */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'autoKey.notKeyed': 'Pose not keyed: auto-key is off; K keys it',
    'autoKey.on': 'Auto-key on: a pose edit keys at the playhead',
    'autoKey.off': 'Auto-key off: a pose edit shows until the frame changes; K keys it',
    'command.keys.autoKey.label': 'Auto-key',
    'command.keys.autoKey.help': 'Key pose edits at the playhead (off: a pose edit shows until the frame changes; K keys it)',
  },
  ja: {
    'autoKey.notKeyed': 'ポーズはキーになっていません（自動キーがオフ）。K でキーにします',
    'autoKey.on': '自動キー オン：ポーズの編集を再生位置でキーにします',
    'autoKey.off': '自動キー オフ：ポーズの編集はフレームが変わるまでの表示です。K でキーにします',
    'command.keys.autoKey.label': '自動キー',
    'command.keys.autoKey.help': 'ポーズの編集を再生位置でキーにする（オフ：フレームが変わるまでの表示だけ。K でキーにする）',
  },
});
