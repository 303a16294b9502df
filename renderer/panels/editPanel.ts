/**
 * The edit panel (right): every edit of the registry with its parameters, disabled with the reason
 * when it does not apply, each run as one undo step. Errors from the core are shown, the motion stays.
 * The panel's values live in one state per edit (editState), which the `edit.<id>` commands use too.
 */
import type { Studio } from '../app/studio';
import type { Motion } from '../../shared/motion/types';
import { EDITS, disabledReason, initialState, panelFields, runPanelEdit, type EditContext, type EditDefinition, type EditState } from './editCatalog';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { readMotionFile } from '../app/core';

export function editContext(studio: Studio): EditContext {
  return { motion: studio.motion, duration: studio.duration, range: studio.range, time: studio.clock.time };
}

const states = new WeakMap<Studio, Map<string, EditState>>();

/** The studio's values for one edit (shared by its panel fields and its command). */
export function editState(studio: Studio, def: EditDefinition): EditState {
  let map = states.get(studio);
  if (!map) states.set(studio, (map = new Map()));
  let state = map.get(def.id);
  if (!state) map.set(def.id, (state = initialState(def)));
  return state;
}

export function editDisabledReason(studio: Studio, def: EditDefinition): string | null {
  return disabledReason(def, editContext(studio), editState(studio, def));
}

/** Runs one edit on the current motion as one undo step; returns whether the motion changed. */
export function runEdit(studio: Studio, def: EditDefinition): boolean {
  const reason = editDisabledReason(studio, def);
  if (reason) {
    studio.messages.error(`${def.label}: ${reason}`);
    return false;
  }
  try {
    const { motion, report } = runPanelEdit(def, editContext(studio), editState(studio, def));
    if (motion === studio.motion) {
      studio.messages.notice(`${def.label}: nothing to change`);
      return false;
    }
    studio.commit(motion, def.label);
    if (report.length) studio.messages.notice(`${def.label}: ${report.join('; ')}`);
    return true;
  } catch (e) {
    studio.messages.error(`${def.label} failed: ${errorText(e)}`);
    return false;
  }
}

export function createEditPanel(studio: Studio): HTMLElement {
  const list = h('div', { class: 'edit-list' });
  const syncers: (() => void)[] = [];
  for (const def of EDITS) {
    const state = editState(studio, def);
    const fields: HTMLElement[] = [];
    for (const f of panelFields(def)) {
      if (f.kind === 'number') {
        const input = h('input', { type: 'number', id: f.id, min: f.min, max: Number.isFinite(f.max) ? f.max : undefined, step: f.step, value: f.value, title: f.title }) as HTMLInputElement;
        input.addEventListener('change', () => {
          const v = Number(input.value);
          if (input.value.trim() !== '' && Number.isFinite(v)) state.values[f.param] = v;
        });
        fields.push(h('label', { class: 'field', for: f.id, title: f.title }, h('span', { text: f.label }), input));
      } else if (f.kind === 'checkbox') {
        const input = h('input', { type: 'checkbox', id: f.id, checked: f.value }) as HTMLInputElement;
        input.addEventListener('change', () => {
          state.values[f.param] = input.checked;
        });
        fields.push(h('label', { class: 'field check', for: f.id, title: f.title }, input, h('span', { text: f.label })));
      } else {
        const input = h('input', { type: 'file', id: f.id, accept: '.vrma,.vmd,.bvh,.vpd', title: f.title }) as HTMLInputElement;
        input.addEventListener('change', async () => {
          const file = input.files?.[0];
          state.other = undefined;
          if (file) {
            try {
              state.other = (await readMotionFile(file.name, new Uint8Array(await file.arrayBuffer()))).motion as Motion;
            } catch (e) {
              studio.messages.error(`Could not read ${file.name}: ${errorText(e)}`);
              input.value = '';
            }
          }
          sync();
        });
        fields.push(h('label', { class: 'field', for: f.id, title: f.title }, h('span', { text: f.label }), input));
      }
    }
    const apply = h('button', { type: 'button', id: `edit-${def.id}`, class: 'apply', 'data-edit': def.id, text: def.label }) as HTMLButtonElement;
    const reasonText = h('p', { class: 'reason', id: `edit-${def.id}-reason` });
    apply.setAttribute('aria-describedby', reasonText.id);
    apply.addEventListener('click', () => runEdit(studio, def));
    const sync = () => {
      const reason = editDisabledReason(studio, def);
      apply.disabled = reason !== null;
      apply.title = reason ? `${def.summary}\n\nUnavailable: ${reason}` : def.summary;
      reasonText.textContent = reason ?? '';
      reasonText.hidden = reason === null;
    };
    syncers.push(sync);
    list.append(h('div', { class: 'edit', title: def.summary }, h('div', { class: 'edit-head' }, apply), ...fields, reasonText));
  }
  const syncAll = () => syncers.forEach((s) => s());
  // Some checks scan the whole motion (outliers); run them after the edited pose is on screen.
  let pending = 0;
  const syncSoon = () => {
    clearTimeout(pending);
    pending = window.setTimeout(syncAll, 50);
  };
  studio.events.on('motion', syncSoon);
  studio.events.on('range', syncAll);
  syncAll();
  return h('section', { class: 'panel edit-panel', 'aria-labelledby': 'edit-title' }, h('h2', { id: 'edit-title', text: 'Edits' }), list);
}
