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
  },
  ja: {
    'notices.bell.label': 'お知らせ',
    'notices.bell.unread': 'お知らせ：未読のエラー {count} 件',
    'notices.history.title': 'お知らせ',
    'notices.history.empty': 'お知らせはまだありません',
    'notices.kind.error': 'エラー',
    'notices.kind.notice': 'お知らせ',
    'notices.kind.success': '完了',
  },
});
