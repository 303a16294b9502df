/** The notification area's bell and history (issue 27) and the studio shell's smaller words. */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'notices.bell.label': 'Notices',
    'notices.bell.unread': 'Notices: {count, plural, one {# error} other {# errors}} not read',
    'notices.history.title': 'Notices',
    'notices.history.empty': 'No notices yet',
    'notices.kind.error': 'Error',
    'notices.kind.notice': 'Notice',
    'notices.kind.success': 'Done',
    'splitter.left': 'Resize the files column',
    'splitter.right': 'Resize the motion and edits column',
    'splitter.dopeSheet': 'Resize the dope sheet',
    'splitter.help': 'Drag to resize (arrow keys: 10 px, with Shift 50 px); double-click for the default size',
  },
  ja: {
    'notices.bell.label': 'お知らせ',
    'notices.bell.unread': 'お知らせ：未読のエラー {count} 件',
    'notices.history.title': 'お知らせ',
    'notices.history.empty': 'お知らせはまだありません',
    'notices.kind.error': 'エラー',
    'notices.kind.notice': 'お知らせ',
    'notices.kind.success': '完了',
    'splitter.left': 'ファイル列の幅を変更',
    'splitter.right': 'モーション情報と編集の列の幅を変更',
    'splitter.dopeSheet': 'ドープシートの高さを変更',
    'splitter.help': 'ドラッグでサイズを変更（矢印キーで 10 px、Shift を押しながらで 50 px）。ダブルクリックで既定のサイズに戻ります',
  },
});
