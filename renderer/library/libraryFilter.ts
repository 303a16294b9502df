/** The library's filter box: rows whose path contains the typed text stay, and how many of how many say so. */
import type { LibraryEntry } from '../../shared/contract/studioApi';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';
import { t } from '../../shared/i18n';

export function libraryFilter(rows: ReadonlyMap<string, { readonly li: HTMLElement; readonly entry: LibraryEntry }>): { element: HTMLElement; apply(): void } {
  const filterInput = h('input', { type: 'search', id: 'library-filter', autocomplete: 'off', spellcheck: 'false' }) as HTMLInputElement;
  tAttr(tAttr(filterInput, 'placeholder', 'studio.library.filter'), 'aria-label', 'studio.library.filter');
  const filterCount = h('span', { class: 'library-count', id: 'library-count', 'aria-live': 'polite' });
  const apply = () => {
    const q = filterInput.value.trim().toLowerCase();
    let shown = 0;
    for (const { li, entry } of rows.values()) {
      const hit = !q || entry.relPath.toLowerCase().includes(q);
      li.hidden = !hit;
      if (hit) shown++;
    }
    filterCount.textContent = q ? t('studio.library.filtered', { shown, total: rows.size }) : '';
  };
  filterInput.addEventListener('input', apply);
  return { element: h('div', { class: 'filter-row' }, filterInput, filterCount), apply };
}
