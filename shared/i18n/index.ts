/**
 * The one message catalogue of the studio, the bedroom and the Electron menus (issue 12).
 * Pure TypeScript (Intl only), so main/ and renderer/ both use it; the CLI stays English and does not.
 *
 *   import { t, setLocale } from '../shared/i18n';
 *   t('studio.status.ready')                       -> "Ready" / "準備完了"
 *   t('library.count', { count: 3 })               -> "3 motions" / "3 個のモーション"
 *
 * New strings go in YOUR area file shared/i18n/messages/<area>.ts (en and ja side by side), which is
 * listed once in catalogue.ts. Terms follow glossary.ts.
 */
export { LOCALES, detectLocale, parseLocale, type Locale } from './locale';
export { t, translate, hasMessage, getLocale, setLocale, loadLocale, onLocaleChange } from './translate';
export { formatNumber, formatPercent, formatUnit, formatDuration, formatSize, formatDate, formatList } from './formatters';
export { formatMessage, placeholdersOf, type Params } from './format';
export type { MessageKey } from './catalogue';
