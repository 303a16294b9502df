/**
 * The edit panel (right): every core edit with its parameters, disabled with the reason when it
 * does not apply, each run as one undo step. Errors from the core are shown, the motion stays.
 */
import type { Studio } from '../app/studio';
import type { Motion } from '../../shared/motion/types';
import { EDITS, missingIn, type EditContext, type EditSpec, type ParamValues } from './editCatalog';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { readMotionFile } from '../app/core';

export function editContext(studio: Studio): EditContext {
  return { motion: studio.motion, duration: studio.duration, range: studio.range, time: studio.clock.time, fps: studio.fps };
}

/** Runs one edit on the current motion as one undo step; returns whether the motion changed. */
export function runEdit(studio: Studio, spec: EditSpec, values: ParamValues): boolean {
  const ctx = editContext(studio);
  const reason = missingIn(spec) ?? spec.disabledReason(ctx);
  if (reason) {
    studio.messages.error(`${spec.label}: ${reason}`);
    return false;
  }
  try {
    const { motion, report } = spec.run(ctx, values);
    if (motion === studio.motion) {
      studio.messages.notice(`${spec.label}: nothing to change`);
      return false;
    }
    studio.commit(motion, spec.label);
    if (report) studio.messages.notice(report);
    return true;
  } catch (e) {
    studio.messages.error(`${spec.label} failed: ${errorText(e)}`);
    return false;
  }
}

export function createEditPanel(studio: Studio): HTMLElement {
  const list = h('div', { class: 'edit-list' });
  const syncers: (() => void)[] = [];
  for (const spec of EDITS) {
    const values: ParamValues = {};
    const fields: HTMLElement[] = [];
    for (const p of spec.params) {
      const id = `edit-${spec.id}-${p.id}`;
      if (p.kind === 'number') {
        values[p.id] = p.value as number;
        const input = h('input', { type: 'number', id, min: p.min, max: p.max, step: p.step, value: p.value as number, title: p.title }) as HTMLInputElement;
        input.addEventListener('change', () => {
          const v = Number(input.value);
          if (Number.isFinite(v)) values[p.id] = v;
        });
        fields.push(h('label', { class: 'field', for: id, title: p.title }, h('span', { text: p.label }), input));
      } else if (p.kind === 'checkbox') {
        values[p.id] = p.value as boolean;
        const input = h('input', { type: 'checkbox', id, checked: !!p.value }) as HTMLInputElement;
        input.addEventListener('change', () => {
          values[p.id] = input.checked;
        });
        fields.push(h('label', { class: 'field check', for: id, title: p.title }, input, h('span', { text: p.label })));
      } else {
        const input = h('input', { type: 'file', id, accept: '.vrma,.vmd,.bvh,.vpd', title: p.title }) as HTMLInputElement;
        input.addEventListener('change', async () => {
          const f = input.files?.[0];
          values[p.id] = undefined;
          if (!f) return;
          try {
            values[p.id] = (await readMotionFile(f.name, new Uint8Array(await f.arrayBuffer()))).motion as Motion;
          } catch (e) {
            studio.messages.error(`Could not read ${f.name}: ${errorText(e)}`);
            input.value = '';
          }
          sync();
        });
        fields.push(h('label', { class: 'field', for: id, title: p.title }, h('span', { text: p.label }), input));
      }
    }
    const apply = h('button', { type: 'button', id: `edit-${spec.id}`, class: 'apply', 'data-edit': spec.id, text: spec.label }) as HTMLButtonElement;
    const reasonText = h('p', { class: 'reason', id: `edit-${spec.id}-reason` });
    apply.setAttribute('aria-describedby', reasonText.id);
    apply.addEventListener('click', () => runEdit(studio, spec, values));
    const sync = () => {
      const reason = missingIn(spec) ?? spec.disabledReason(editContext(studio));
      apply.disabled = reason !== null;
      apply.title = reason ? `${spec.description}\n\nUnavailable: ${reason}` : spec.description;
      reasonText.textContent = reason ?? '';
      reasonText.hidden = reason === null;
    };
    syncers.push(sync);
    list.append(h('div', { class: 'edit', title: spec.description }, h('div', { class: 'edit-head' }, apply), ...fields, reasonText));
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
