/**
 * The edit panel (right): every edit of the registry with its parameters, disabled with the reason
 * when it does not apply, each run as one undo step. Errors from the core are shown, the motion stays.
 * The panel's values live in one state per edit (editState), which the `edit.<id>` commands use too.
 */
import { exportFormatControl } from '../app/exportFormat';
import { commandButton } from './commandButton';
import type { Studio } from '../app/studio';
import { durationOf, type Motion } from '../../shared/motion/types';
import { EDITS, disabledReason, initialState, panelEditInput, panelFields, runPanelEdit, type EditContext, type EditDefinition, type EditState } from './editCatalog';
import type { EditFigure } from '../../shared/edits/editReport';
import { longEditsOf } from '../app/longEdits';
import { CancelledError } from '../workers/jobs';
import { WorkerFailedError } from '../../shared/rpc/rpcCalls';
import type { TimeRange } from '../app/range';
import { createEditProgress } from './editProgress';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { readMotionFile } from '../app/core';
import { t, onLocaleChange } from '../../shared/i18n';
import { localize, tText } from '../ui/i18n';
import { editHelp, editLabel, editReportText, withParamLabels } from './editText';
import { filePicker } from '../ui/filePicker';

import { acceptAttribute, MOTION_EXTENSIONS } from '../../shared/formats/formats';
import { editConfirmation } from '../app/editConfirmation';
import { mapRange } from '../app/range';
import { createEditSections } from './editGroups';
import { readAvatarSkeleton, type AvatarSkeleton } from '../../shared/avatar/avatarSkeleton';

/** The avatar's rest skeleton, read once per loaded avatar (for "Fit to this avatar"); undefined when unreadable. */
const skeletons = new WeakMap<object, AvatarSkeleton | null>();
function avatarSkeleton(studio: Studio): AvatarSkeleton | undefined {
  const avatar = studio.avatar;
  if (!avatar) return undefined;
  let s = skeletons.get(avatar);
  if (s === undefined) {
    try {
      s = readAvatarSkeleton(avatar.bytes, avatar.name);
    } catch {
      s = null;
    }
    skeletons.set(avatar, s);
  }
  return s ?? undefined;
}

export function editContext(studio: Studio): EditContext {
  return { motion: studio.motion, duration: studio.duration, range: studio.range, time: studio.clock.time, avatar: avatarSkeleton(studio) };
}

const states = new WeakMap<Studio, Map<string, EditState>>();

/** The studio's values for one edit (shared by its panel fields and its command). */
export function editState(studio: Studio, def: EditDefinition): EditState {
  let map = states.get(studio);
  if (!map) states.set(studio, map = new Map());
  let state = map.get(def.id);
  if (!state) map.set(def.id, state = initialState(def));
  return state;
}

export function editDisabledReason(studio: Studio, def: EditDefinition): string | null {
  const job = longEditsOf(studio).job;
  if (job) return t('edits.running', { edit: job.label });
  return disabledReason(def, editContext(studio), editState(studio, def));
}

/** What an edit made, in the page or in the worker; `range`: IN/OUT after an edit that moved time. */
interface Made {
  readonly motion: Motion;
  readonly figures: readonly EditFigure[];
  readonly range?: TimeRange | null;
}

/** Records an edit's result as one undo step with its one-line report; false when it changed nothing. */
function commitEdit(studio: Studio, def: EditDefinition, before: Motion, values: Readonly<Record<string, unknown>>, range: TimeRange | null, made: Made): boolean {
  const { motion, figures } = made;
  if (motion === before) {
    studio.messages.notice(() => t('edits.nothingToChange', { edit: editLabel(def) }));
    return false;
  }
  // One line says what the edit did: the registry's own figures, worded in the current language
  // (re-read after a language switch), or for an edit without figures a confirmation ("Mirrored");
  // the studio adds the undo hint.
  studio.commit(motion, editLabel(def), () => (figures.length ? editReportText(def, figures) : editConfirmation(def.id, values, range, before, motion)));
  // IN/OUT follow an edit that moved time (speed, delete, keep, reverse, loop, fix).
  if (made.range !== undefined && range) studio.setRange(made.range);
  return true;
}

function editFailed(studio: Studio, def: EditDefinition, e: unknown): false {
  studio.messages.error(() => t('edits.failed', { edit: editLabel(def), detail: errorText(withParamLabels(def, e)) }));
  return false;
}

/** Runs the edit in the page: the result at once. */
function runHere(studio: Studio, def: EditDefinition, before: Motion, range: TimeRange | null): boolean {
  try {
    const values = { ...editState(studio, def).values };
    const { motion, figures, timeMap } = runPanelEdit(def, editContext(studio), editState(studio, def));
    const made = { motion, figures, ...(timeMap ? { range: mapRange(range, timeMap, durationOf(motion)) } : {}) };
    return commitEdit(studio, def, before, values, range, made);
  } catch (e) {
    return editFailed(studio, def, e);
  }
}

/**
 * A long edit on a long motion, in the edit worker with the progress bar: committed when it
 * completes (if the motion did not change meanwhile), nothing when cancelled; in the page when no
 * worker can run.
 */
async function runOffThread(studio: Studio, def: EditDefinition, before: Motion, range: TimeRange | null): Promise<void> {
  const state = editState(studio, def);
  const values = { ...state.values };
  const input = panelEditInput(def, editContext(studio), state);
  try {
    const made = await longEditsOf(studio).run(def, editLabel(def), input, values, range);
    if (studio.motion !== before) {
      studio.messages.error(() => t('edits.changedWhileRunning', { edit: editLabel(def) }));
      return;
    }
    commitEdit(studio, def, before, values, range, made);
  } catch (e) {
    if (e instanceof CancelledError) studio.messages.notice(() => t('edits.cancelled', { edit: editLabel(def) }));
    else if (e instanceof WorkerFailedError && studio.motion === before) runHere(studio, def, before, range);
    else editFailed(studio, def, e);
  }
}

/**
 * Runs one edit on the current motion as one undo step; returns whether the motion changed. A long
 * edit on a long motion runs in the edit worker and is committed when it completes: false here then.
 */
export function runEdit(studio: Studio, def: EditDefinition): boolean {
  if (editDisabledReason(studio, def)) {
    studio.messages.error(() => t('edits.cannotRun', { edit: editLabel(def), reason: editDisabledReason(studio, def) ?? '' }));
    return false;
  }
  const before = studio.motion;
  const range = studio.range;
  if (!longEditsOf(studio).offThread(def, before)) return runHere(studio, def, before, range);
  void runOffThread(studio, def, before, range);
  return false;
}

export function createEditPanel(studio: Studio): HTMLElement {
  const sections = createEditSections();
  const list = sections.element;
  const syncers: (() => void)[] = [];
  for (const def of EDITS) {
    const state = editState(studio, def);
    const fields: HTMLElement[] = [];
    // Labels and tooltips are re-read from panelFields (current language) after a language switch.
    const text = (label: HTMLElement, span: HTMLElement, input: HTMLElement, id: string) =>
      localize(label, () => {
        const now = panelFields(def).find((x) => x.id === id)!;
        span.textContent = now.label;
        label.title = now.title;
        input.title = now.title;
      });
    for (const f of panelFields(def)) {
      if (f.kind === 'number') {
        const input = h('input', { type: 'number', id: f.id, min: f.min, max: Number.isFinite(f.max) ? f.max : undefined, step: f.step, value: f.value }) as HTMLInputElement;
        input.addEventListener('change', () => {
          const v = Number(input.value);
          if (input.value.trim() !== '' && Number.isFinite(v)) state.values[f.param] = v;
        });
        const span = h('span');
        fields.push(text(h('label', { class: 'field', for: f.id }, span, input), span, input, f.id));
      } else if (f.kind === 'checkbox') {
        const input = h('input', { type: 'checkbox', id: f.id, checked: f.value }) as HTMLInputElement;
        input.addEventListener('change', () => {
          state.values[f.param] = input.checked;
        });
        const span = h('span');
        fields.push(text(h('label', { class: 'field check', for: f.id }, input, span), span, input, f.id));
      } else {
        const input = h('input', { type: 'file', id: f.id, accept: acceptAttribute(MOTION_EXTENSIONS) }) as HTMLInputElement;
        input.addEventListener('change', async () => {
          const file = input.files?.[0];
          state.other = undefined;
          if (file) {
            try {
              state.other = (await readMotionFile(file.name, new Uint8Array(await file.arrayBuffer()))).motion as Motion;
            } catch (e) {
              studio.messages.error(() => t('edits.readFailed', { file: file.name, detail: errorText(e) }));
              input.value = '';
            }
          }
          sync();
        });
        const span = h('span');
        fields.push(text(h('label', { class: 'field', for: f.id }, span, filePicker(input)), span, input, f.id));
      }
    }
    const apply = h('button', { type: 'button', id: `edit-${def.id}`, class: 'apply', 'data-edit': def.id, text: editLabel(def) }) as HTMLButtonElement;
    const reasonText = h('p', { class: 'reason', id: `edit-${def.id}-reason` });
    apply.setAttribute('aria-describedby', reasonText.id);
    apply.addEventListener('click', () => runEdit(studio, def));
    const sync = () => {
      const reason = editDisabledReason(studio, def);
      apply.disabled = reason !== null;
      apply.textContent = editLabel(def);
      apply.title = reason ? t('studio.tooltip.unavailable', { text: editHelp(def), reason }) : editHelp(def);
      box.title = editHelp(def);
      reasonText.textContent = reason ?? '';
      reasonText.hidden = reason === null;
    };
    syncers.push(sync);
    const box = h('div', { class: 'edit' }, h('div', { class: 'edit-head' }, apply), ...fields, reasonText);
    sections.bodyFor(def.id).append(box);
  }
  // Export to another format sits with the other file actions (Optimize): a collapsed group, so the
  // panels' layout does not change.
  sections.bodyFor('optimize').append(
    h('div', { class: 'edit' }, h('div', { class: 'edit-head' }, exportFormatControl(studio, commandButton(studio, 'file.exportChosen', { label: () => t('studio.exportTo') })))),
  );
  const syncAll = () => syncers.forEach((s) => s());
  // Some checks scan the whole motion (outliers); run them after the edited pose is on screen.
  let pending = 0;
  const syncSoon = () => {
    clearTimeout(pending);
    pending = window.setTimeout(syncAll, 50);
  };
  studio.events.on('motion', syncSoon);
  studio.events.on('range', syncAll);
  // Edits are disabled while a long one runs (started or ended; not on every progress step).
  let running = false;
  longEditsOf(studio).events.on('job', (job) => {
    if ((job !== null) === running) return;
    running = job !== null;
    syncAll();
  });
  onLocaleChange(syncAll);
  syncAll();
  return h('section', { class: 'panel edit-panel', 'aria-labelledby': 'edit-title' }, tText(h('h2', { id: 'edit-title' }), 'studio.edits.title'), createEditProgress(longEditsOf(studio)), list);
}
