/**
 * The dope sheet's row filter controls: which rows show (keyed, all bones, the selected bone) and a
 * search box; the sheet lays its rows out again on every change (filterRows in dopeSheetRows.ts).
 */
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { ROW_FILTER_MODES, type RowFilterMode } from './dopeSheetRows';

export function createRowFilterControls(initial: RowFilterMode, changed: (mode: RowFilterMode, search: string) => void): HTMLElement {
  const select = h('select', { id: 'dope-filter' }, ...ROW_FILTER_MODES.map((m) => tText(h('option', { value: m }), `timeline.dope.filter.${m}` as never))) as HTMLSelectElement;
  select.value = initial;
  tAttr(select, 'aria-label', 'timeline.dope.filter');
  tAttr(select, 'title', 'timeline.dope.filter');
  const search = h('input', { type: 'search', id: 'dope-search', class: 'dope-search' }) as HTMLInputElement;
  tAttr(search, 'placeholder', 'timeline.dope.search');
  tAttr(search, 'aria-label', 'timeline.dope.search');
  const update = () => changed(select.value as RowFilterMode, search.value);
  select.addEventListener('change', update);
  search.addEventListener('input', update);
  // Esc in the search box clears it (and keeps Esc from clearing the range while typing).
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && search.value) {
      e.stopPropagation();
      search.value = '';
      update();
    }
  });
  return h('span', { class: 'dope-filter' }, select, search);
}
