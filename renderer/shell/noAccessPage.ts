/**
 * The browser host's page opened without a valid key (no launch code and no session token in this
 * tab, or a code that was used or expired): instead of a half-working studio, a page that says how
 * to open the studio — the address `npm run web` prints in its terminal.
 */
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';

export function showNoAccessPage(root: HTMLElement, detail?: string): void {
  document.title = t('studio.noAccess.title');
  root.replaceChildren(
    h(
      'main',
      { class: 'no-access', role: 'main', 'aria-labelledby': 'no-access-title' },
      h('h1', { id: 'no-access-title', text: t('studio.noAccess.title') }),
      h('p', { text: t('studio.noAccess.text') }),
      h('pre', { class: 'no-access-command', text: 'npm run web' }),
      h('p', { text: t('studio.noAccess.address') }),
      detail ? h('p', { class: 'no-access-detail', text: detail }) : null,
    ),
  );
}
