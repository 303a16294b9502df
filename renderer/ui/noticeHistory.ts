/**
 * The bell of the notification area (issue 27): a top-bar button whose counter is the number of
 * errors not read yet, opening the history of every notice of the session (newest first, with its
 * time and kind, in the current language). Opening it marks everything read.
 */
import { h } from './dom';
import { localize } from './i18n';
import { popover, type Popover } from './popover';
import { t, formatDate, onLocaleChange } from '../../shared/i18n';
import type { Messages } from './messages';

const KIND_ICON = { error: '⚠', notice: 'ℹ', success: '✓' } as const;
const SVG = 'http://www.w3.org/2000/svg';

/** A bell drawn as a path: an emoji bell is a missing glyph on systems without an emoji font. */
function bellIcon(): SVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute(
    'd',
    'M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v3l1.3 1.6a.5.5 0 0 1-.4.9H2.6a.5.5 0 0 1-.4-.9l1.3-1.6v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 14h3.4a1.7 1.7 0 0 1-3.4 0z',
  );
  svg.append(path);
  return svg;
}

export function createNoticeHistory(messages: Messages): Popover {
  const list = h('ol', { class: 'popover-list notice-list', id: 'notice-history-list' });
  const title = localize(h('h2'), (e) => (e.textContent = t('notices.history.title')));
  const render = () => {
    const entries = [...messages.log].reverse();
    list.replaceChildren(
      ...(entries.length
        ? entries.map((m) =>
          h(
            'li',
            { class: `notice-entry ${m.kind}${m.unread ? ' unread' : ''}`, 'data-kind': m.kind },
            h('span', { class: 'notice-kind', 'aria-hidden': 'true', text: KIND_ICON[m.kind] }),
            h('span', { class: 'visually-hidden', text: t(`notices.kind.${m.kind}`) }),
            h('time', { class: 'notice-time', datetime: new Date(m.at).toISOString(), text: formatDate(m.at, 'time') }),
            h('span', { class: 'notice-text', text: m.read() }),
          )
        )
        : [h('li', { class: 'empty', text: t('notices.history.empty') })]),
    );
  };
  const pop = popover('notice-history', title, list, render, {
    closeOutside: true,
    onOpenChange: (open) => {
      if (open) messages.markAllRead();
    },
  });
  pop.button.classList.add('notice-bell');
  const sync = () => {
    const n = messages.unread;
    pop.button.replaceChildren(bellIcon(), ...(n ? [h('span', { class: 'notice-count', text: String(n) })] : []));
    pop.button.classList.toggle('has-unread', n > 0);
    const label = n ? t('notices.bell.unread', { count: n }) : t('notices.bell.label');
    pop.button.setAttribute('aria-label', label);
    pop.button.title = label;
    if (pop.isOpen) render();
  };
  messages.onChange(sync);
  onLocaleChange(sync);
  sync();
  return pop;
}
