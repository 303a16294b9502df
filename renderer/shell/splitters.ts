/**
 * Splitters between the viewport, the side panels and the timeline area (issue 27): drag (or focus
 * and press ←/→/↑/↓, Shift for 50 px) to resize the library column, the edit column and the dope
 * sheet (the curve view shares its height); double-click goes back to the layout's default. Sizes
 * are CSS variables on the studio view (--left-w, --right-w, --dope-h; styles.css falls back to the
 * defaults of each window size) and are kept in the settings (PANEL_SIZES is the one table of them;
 * the studio's one settings client),
 * written once per drag.
 */
import { h } from '../ui/dom';
import { localize } from '../ui/i18n';
import { t } from '../../shared/i18n';
import type { SettingsClient } from '../app/settings';
import { PANEL_SIZES, type PanelName, type PanelSizes } from '../../shared/contract/studioApi';

/** What each splitter resizes: its CSS variable, the element it measures, and which way a drag grows it. */
interface SplitterSpec {
  readonly panel: PanelName;
  readonly variable: string;
  readonly orientation: 'vertical' | 'horizontal';
  /** +1: dragging right / down grows the panel; -1: left / up grows it. */
  readonly grow: 1 | -1;
  readonly label: 'splitter.left' | 'splitter.right' | 'splitter.dopeSheet';
}

const SPECS: readonly SplitterSpec[] = [
  { panel: 'left', variable: '--left-w', orientation: 'vertical', grow: 1, label: 'splitter.left' },
  { panel: 'right', variable: '--right-w', orientation: 'vertical', grow: -1, label: 'splitter.right' },
  { panel: 'dopeSheet', variable: '--dope-h', orientation: 'horizontal', grow: -1, label: 'splitter.dopeSheet' },
];

/** The viewport keeps at least this much room (px) whatever the splitters say. */
const MIN_VIEWPORT = { width: 240, height: 140 };
const KEY_STEP = 10;
const KEY_STEP_BIG = 50;

export interface Splitters {
  /** The splitter elements, to be placed by the layout (left and right in .center, the dope sheet's in .bottom). */
  readonly elements: Readonly<Record<PanelName, HTMLElement>>;
  /** Applies stored sizes (settings at start-up). */
  apply(sizes: PanelSizes): void;
}

export function createSplitters(view: HTMLElement, measure: Readonly<Record<PanelName, () => number>>, settings: SettingsClient): Splitters {
  const sizes: Record<PanelName, number | null> = { left: null, right: null, dopeSheet: null };
  const clamp = (panel: PanelName, px: number) => {
    const { min, max } = PANEL_SIZES[panel];
    // The viewport keeps its room: the other column's width (or the rest of the height) counts.
    const room = panel === 'dopeSheet'
      ? view.clientHeight - MIN_VIEWPORT.height - (view.querySelector<HTMLElement>('.bottom')?.offsetHeight ?? 0) + measure.dopeSheet()
      : view.clientWidth - MIN_VIEWPORT.width - measure[panel === 'left' ? 'right' : 'left']();
    return Math.round(Math.max(min, Math.min(max, room, px)));
  };
  const set = (panel: PanelName, px: number | null) => {
    const spec = SPECS.find((s) => s.panel === panel)!;
    sizes[panel] = px === null ? null : clamp(panel, px);
    if (sizes[panel] === null) view.style.removeProperty(spec.variable);
    else view.style.setProperty(spec.variable, `${sizes[panel]}px`);
    window.dispatchEvent(new Event('resize')); // the canvases (viewport, timeline, dope sheet) follow
    sync();
  };
  const save = (panel: PanelName) => {
    settings.set({ panels: { [panel]: sizes[panel] } }).catch(() => {
      /* not kept: the sizes still apply to this session */
    });
  };

  const elements = {} as Record<PanelName, HTMLElement>;
  const syncs: (() => void)[] = [];
  const sync = () => syncs.forEach((f) => f());
  for (const spec of SPECS) {
    const el = h('div', { class: `splitter ${spec.orientation} splitter-${spec.panel}`, role: 'separator', tabindex: 0, 'aria-orientation': spec.orientation, 'data-panel': spec.panel });
    localize(el, (e) => {
      e.setAttribute('aria-label', t(spec.label));
      e.title = t('splitter.help');
    });
    const { min, max } = PANEL_SIZES[spec.panel];
    el.setAttribute('aria-valuemin', String(min));
    el.setAttribute('aria-valuemax', String(max));
    syncs.push(() => el.setAttribute('aria-valuenow', String(Math.round(measure[spec.panel]()))));
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      el.classList.add('dragging');
      const start = spec.orientation === 'vertical' ? e.clientX : e.clientY;
      const from = measure[spec.panel]();
      const move = (m: PointerEvent) => set(spec.panel, from + spec.grow * ((spec.orientation === 'vertical' ? m.clientX : m.clientY) - start));
      const up = () => {
        el.removeEventListener('pointermove', move);
        el.removeEventListener('pointerup', up);
        el.removeEventListener('pointercancel', up);
        el.classList.remove('dragging');
        save(spec.panel);
      };
      el.addEventListener('pointermove', move);
      el.addEventListener('pointerup', up);
      el.addEventListener('pointercancel', up);
    });
    el.addEventListener('dblclick', () => {
      set(spec.panel, null);
      save(spec.panel);
    });
    el.addEventListener('keydown', (e) => {
      const keys: Record<string, number> = spec.orientation === 'vertical' ? { ArrowLeft: -1, ArrowRight: 1 } : { ArrowUp: -1, ArrowDown: 1 };
      const dir = keys[e.key];
      if (!dir) return;
      e.preventDefault();
      e.stopPropagation(); // not a studio shortcut (← → step frames)
      set(spec.panel, measure[spec.panel]() + spec.grow * dir * (e.shiftKey ? KEY_STEP_BIG : KEY_STEP));
      save(spec.panel);
    });
    elements[spec.panel] = el;
  }
  requestAnimationFrame(sync);
  return {
    elements,
    apply: (stored) => {
      for (const spec of SPECS) if (stored[spec.panel] !== null) set(spec.panel, stored[spec.panel]);
    },
  };
}
