/**
 * The expressions panel (issue 13): one weight slider per expression the loaded avatar has (presets
 * by three-vrm's VRM 1.0 names, which it also gives VRM 0.x blend shapes: joy -> happy, a -> aa; then
 * custom ones by their own names). Dragging a slider shows the weight on the avatar at once and, on
 * release, keys it at the playhead: one undo step per drag. Otherwise a slider shows the weight that
 * plays at the playhead. The four look* presets are left out: VRM Animation gives them to the gaze,
 * which is keyed with the target in the viewport (renderer/viewport/lookAtTarget.ts); its yaw and
 * pitch are shown here (gazeFields.ts), and can be typed to key them exactly. An avatar without expressions or gaze says so.
 */
import type { Studio } from '../app/studio';
import type { AutoKey } from '../app/autoKey';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { EXPRESSION_PRESETS } from '../../shared/vrm/humanBones';
import { expressionWeightAt, GAZE_EXPRESSIONS, isPresetExpression, setExpressionKey } from '../../shared/edits/expressionKeys';
import type { YawPitch } from '../../shared/edits/lookAtKeys';
import { createGazeFields } from './gazeFields';
import { frameOf } from '../app/frames';
import { afterTask } from '../ui/deferred';
import { h } from '../ui/dom';
import { localize, tAttr, tText } from '../ui/i18n';
import { t, formatNumber, onLocaleChange } from '../../shared/i18n';
import { expressionLabel } from './expressionNames';

/** The expressions of an avatar that a VRM Animation may key, presets first in the spec's order. */
export function keyableExpressions(avatar: LoadedAvatar | null): string[] {
  const names = avatar?.vrm.expressionManager?.expressions.map((e) => e.expressionName) ?? [];
  const present = new Set(names.filter((n) => !GAZE_EXPRESSIONS.has(n)));
  const presets = EXPRESSION_PRESETS.filter((p) => present.has(p));
  const custom = [...present].filter((n) => !isPresetExpression(n));
  return [...presets, ...custom];
}

const weightText = (w: number) => formatNumber(w, 2, 2);

const SLIDER_KEYS: ReadonlySet<string> = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

interface Slider {
  readonly name: string;
  readonly input: HTMLInputElement;
  readonly value: HTMLElement;
  /** The weight shown (a seek that keeps it formats nothing: sync runs on every seek). */
  shown?: number;
}

export interface ExpressionPanel {
  readonly element: HTMLElement;
  /** The gaze being dragged in the viewport (null: show the motion's again). */
  showLiveGaze(gaze: YawPitch | null): void;
}

export function createExpressionPanel(studio: Studio, autoKey: AutoKey): ExpressionPanel {
  const list = h('div', { class: 'expression-list', id: 'expression-list' });
  const empty = h('p', { class: 'expression-empty', id: 'expression-empty' });
  const gaze = createGazeFields(studio, autoKey);
  const title = tText(h('h2', { id: 'expressions-title' }), 'expressions.title');
  const panel = h('section', { class: 'panel expression-panel', id: 'expression-panel', 'aria-labelledby': 'expressions-title' }, title, empty, list, gaze.element);
  tAttr(title, 'title', 'expressions.help');

  let sliders: Slider[] = [];
  /** The slider being dragged: its expression and the playhead time its key goes to. */
  let drag: { name: string; time: number; start: number } | null = null;

  const build = () => {
    const avatar = studio.avatar;
    const names = keyableExpressions(avatar);
    const rows: HTMLElement[] = [];
    sliders = names.map((name) => {
      const input = h('input', { type: 'range', min: 0, max: 1, step: 0.01, 'data-expression': name, class: 'expression-slider' }) as HTMLInputElement;
      const value = h('output', { class: 'expression-value', 'data-expression-value': name });
      const label = localize(h('span', { class: 'expression-name' }), (e) => (e.textContent = expressionLabel(name)));
      localize(input, (e) => e.setAttribute('aria-label', t('expressions.weight', { name: expressionLabel(name) })));
      rows.push(h('label', { class: 'expression-row' }, label, input, value));
      const slider = { name, input, value };
      wire(slider);
      return slider;
    });
    list.replaceChildren(...rows);
    empty.hidden = names.length > 0;
    list.hidden = names.length === 0;
    renderTexts();
    sync();
  };

  const renderTexts = () => {
    const avatar = studio.avatar;
    empty.textContent = avatar ? t('expressions.none') : t('expressions.noAvatar');
    gaze.render();
  };

  /** Sliders show the weight that plays at the playhead (the dragged one shows the pointer's). */
  const sync = () => {
    const motion = autoKey.motion;
    const time = studio.clock.time;
    for (const s of sliders) {
      if (drag?.name === s.name) continue;
      const w = expressionWeightAt(motion, s.name, time);
      if (s.shown === w) continue;
      s.shown = w;
      const text = String(Math.round(w * 100) / 100);
      if (s.input.value !== text) s.input.value = text;
      const shown = weightText(w);
      if (s.value.textContent !== shown) s.value.textContent = shown;
    }
    gaze.render();
  };

  function wire(s: Slider): void {
    const begin = () => {
      if (drag) return;
      // The mixer leaves the avatar alone while the value is shown live (the studio's one drag session).
      studio.drag.begin();
      drag = { name: s.name, time: studio.keyTime, start: expressionWeightAt(autoKey.motion, s.name, studio.keyTime) };
    };
    s.input.addEventListener('input', () => {
      begin();
      const w = Number(s.input.value);
      s.shown = undefined;
      s.value.textContent = weightText(w);
      studio.avatar?.vrm.expressionManager?.setValue(s.name, w);
      studio.viewport.requestRender();
    });
    const end = () => {
      const d = drag;
      if (!d || d.name !== s.name) return;
      drag = null;
      const w = Number(s.input.value);
      const frame = frameOf(d.time, studio.fps);
      // One key on release (none for a drag back to where it started); the avatar shows the motion's pose again.
      studio.drag.end(
        Math.abs(w - d.start) > 1e-9
          ? {
            apply: (base) => setExpressionKey(base, s.name, d.time, w),
            label: t('expressions.undoLabel', { name: expressionLabel(s.name) }),
            done: () => t('expressions.keyed', { name: expressionLabel(s.name), weight: weightText(w), frame }),
            failed: (detail) => t('expressions.failed', { detail }),
          }
          : null,
      );
      sync();
    };
    s.input.addEventListener('change', end);
    // The arrow keys (and Home/End/Page keys) move the focused slider, a key each press, rather than
    // stepping the playhead as they do elsewhere (the window's shortcut listener never sees them).
    s.input.addEventListener('keydown', (e) => {
      if (SLIDER_KEYS.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) e.stopPropagation();
    });
    // A drag back to where it started fires no change event: the release still ends it.
    s.input.addEventListener('pointerup', () => setTimeout(end, 0));
    s.input.addEventListener('blur', end);
  }

  studio.events.on('avatar', build);
  // Once per task, not per seek: the sliders' DOM writes were half of posing a frame (0.11 of 0.19 ms
  // a seek on the 10-minute motion), and only the last seek of a task is ever painted.
  const syncSoon = afterTask(sync);
  studio.events.on('motion', syncSoon);
  studio.events.on('time', syncSoon);
  onLocaleChange(() => {
    renderTexts();
    for (const s of sliders) s.shown = undefined; // weights are numbers worded in the language
    sync();
  });
  build();

  return {
    element: panel,
    showLiveGaze: (g) => gaze.showLive(g),
  };
}
