/**
 * Two pop-over panels of the top bar, both about the current document:
 *  - History: the undo history as a list of named steps (like Blender's and Excalidraw's); the
 *    current step is marked, a click goes back (or forward) to any step.
 *  - Report: the document's conversion notes (skipped bones, morphs, assumptions); cleared when
 *    another document opens. Toasts that mention notes open it. Below them, the Compatibility section
 *    (compatSection.ts): what each known reader will do with the document.
 * Each is a toggle button (aria-expanded) and a panel that Escape, a press outside or a second click
 * closes (renderer/ui/popover.ts). A history step shows its parameters (the edit's confirmation line).
 */
import type { Studio } from '../app/studio';
import { h } from '../ui/dom';
import { t, onLocaleChange } from '../../shared/i18n';
import { localize } from '../ui/i18n';
import { createCompatSection } from './compatSection';
import { popover, type Popover } from '../ui/popover';

/** A history step's name as shown: the first step ('Open', History's default) in the current language. */
const stepLabel = (label: string) => (label === 'Open' ? t('studio.history.open') : label);

function documentPopover(id: string, render: (list: HTMLElement) => void, labelKey: 'studio.history.title' | 'studio.report.title'): Popover {
  const list = h('ol', { class: 'popover-list', id: `${id}-list` });
  const title = localize(h('h2'), (e) => (e.textContent = t(labelKey)));
  // The history closes on a press outside; the report stays open while files are browsed (it follows the document).
  return popover(id, title, list, () => render(list), { closeOutside: labelKey === 'studio.history.title' });
}

export function createDocumentPanels(studio: Studio): { buttons: HTMLElement[]; panels: HTMLElement[]; openReport(): void } {
  const history = documentPopover(
    'history-panel',
    (list) => {
      const entries = studio.history.entries;
      const at = studio.history.position;
      list.replaceChildren(
        ...entries.map((e, i) => {
          const b = h('button', { type: 'button', class: 'history-step', 'data-index': i, 'aria-current': i === at ? 'step' : undefined, text: stepLabel(e.label) }) as HTMLButtonElement;
          if (i > at) b.classList.add('undone');
          b.addEventListener('click', () => studio.goToHistory(i));
          // The step's parameters, as its confirmation said them ("Speed: speed ×0.5, duration 1.00 s → 2.00 s").
          const detail = e.detail?.();
          if (!detail || detail === e.label) return h('li', {}, b);
          const id = `history-detail-${i}`;
          b.setAttribute('aria-describedby', id);
          return h('li', {}, b, h('span', { class: 'history-detail', id, text: detail }));
        }),
      );
    },
    'studio.history.title',
  );
  localize(history.button, (b) => {
    b.textContent = t('studio.history.button', { count: studio.history.position });
    b.title = t('studio.history.help');
  });

  const compat = createCompatSection(studio);
  const report = documentPopover(
    'report-panel',
    (list) => {
      const notes = studio.doc.reports;
      list.replaceChildren(
        ...(notes.length ? notes.map((n) => h('li', { text: n })) : [localize(h('li', { class: 'empty' }), (e) => (e.textContent = t('studio.report.empty', { file: studio.doc.fileLabel })))]),
      );
      compat.render();
    },
    'studio.report.title',
  );
  report.panel.append(compat.element);
  const syncReport = () => {
    const n = studio.doc.reports.length;
    report.button.textContent = t('studio.report.button', { count: n });
    report.button.title = t('studio.report.openHelp');
    report.button.classList.toggle('has-notes', n > 0);
  };

  const refresh = () => {
    history.button.textContent = t('studio.history.button', { count: studio.history.position });
    syncReport();
    if (!history.panel.hidden) history.open();
    if (!report.panel.hidden) report.open();
  };
  studio.events.on('document', refresh);
  onLocaleChange(refresh);
  refresh();
  studio.messages.onOpenReport = () => {
    history.close();
    report.open();
    report.panel.querySelector<HTMLElement>('li')?.setAttribute('tabindex', '-1');
    report.panel.querySelector<HTMLElement>('li')?.focus();
  };
  return { buttons: [history.button, report.button], panels: [history.panel, report.panel], openReport: () => studio.messages.onOpenReport?.() };
}
