/**
 * The edit panel's view of the edit registry (shared/edits/registry.ts): the fields each edit shows,
 * their starting values and limits, when an edit does not apply and why, and how it is run on the
 * studio's motion. Pure (no DOM), so a unit test can compare it with the CLI's --help.
 */
import type { Motion } from '../../shared/motion/types';
import type { TimeRange } from '../app/range';
import type { AvatarSkeleton } from '../../shared/avatar/avatarSkeleton';
import { EDITS, UNAVAILABLE_REASONS, runEdit, type EditDefinition, type EditInput, type EditOutcome } from '../../shared/edits/registry';
import { t } from '../../shared/i18n';
import { fieldLabel, fieldTitle, reasonText } from './editText';

export { EDITS, type EditDefinition };

/** One field of an edit in the panel. Number limits are the core's; the core checks them again. */
export type PanelField =
  | {
    readonly kind: 'number';
    /** Element id `edit-<edit>-<param>`. */
    readonly id: string;
    readonly param: string;
    readonly label: string;
    readonly value: number;
    readonly min: number;
    readonly max: number;
    readonly step: number;
    /** Tooltip: help, accepted values and default. */
    readonly title: string;
  }
  | { readonly kind: 'checkbox'; readonly id: string; readonly param: string; readonly label: string; readonly value: boolean; readonly title: string }
  | { readonly kind: 'motionFile'; readonly id: string; readonly label: string; readonly title: string };

/** The panel's fields of one edit, in the registry's order (the second motion first); texts in the current language. */
export function panelFields(def: EditDefinition): PanelField[] {
  const fields: PanelField[] = [];
  if (def.other) fields.push({ kind: 'motionFile', id: `edit-${def.id}-other`, label: t('edits.otherFile'), title: t('edits.otherFileHelp') });
  for (const p of def.params) {
    const id = `edit-${def.id}-${p.name}`;
    if (p.kind === 'boolean') {
      fields.push({ kind: 'checkbox', id, param: p.name, label: fieldLabel(def, p), value: p.default, title: fieldTitle(def, p) });
      continue;
    }
    const value = p.default ?? p.suggested ?? p.min;
    fields.push({ kind: 'number', id, param: p.name, label: fieldLabel(def, p), value, min: p.min, max: p.max, step: p.step, title: fieldTitle(def, p) });
  }
  return fields;
}

/** What the panel holds for one edit: its parameter values and, for edits with `other`, the second motion. */
export interface EditState {
  readonly values: Record<string, number | boolean>;
  other?: Motion;
}

/** The state an edit starts with in the panel (the registry's defaults, or its suggestion). */
export function initialState(def: EditDefinition): EditState {
  const values: Record<string, number | boolean> = {};
  for (const f of panelFields(def)) if (f.kind !== 'motionFile') values[f.param] = f.value;
  return { values };
}

export interface EditContext {
  readonly motion: Motion;
  readonly duration: number;
  readonly range: TimeRange | null;
  readonly time: number;
  /** The avatar on screen (its rest skeleton), for edits that fit to it. */
  readonly avatar?: AvatarSkeleton;
}

/** Why the edit cannot run now (in the current language), or null when it can. */
export function disabledReason(def: EditDefinition, ctx: EditContext, state: EditState): string | null {
  if (def.range === 'required' && !ctx.range) return t('edits.needsRange');
  if (def.other && !state.other) return t('edits.needsOther');
  if (def.avatar && !ctx.avatar) return t('ik.needsAvatar');
  const code = def.unavailable?.(ctx.motion) ?? null;
  return code ? reasonText(code, UNAVAILABLE_REASONS[code]) : null;
}

/** What an edit runs on in the studio: its motion, IN/OUT as the range, the playhead as the time. */
export function panelEditInput(def: EditDefinition, ctx: EditContext, state: EditState): EditInput {
  const range = def.range && ctx.range ? { from: ctx.range.start, to: ctx.range.end } : undefined;
  return { motion: ctx.motion, range, other: state.other, time: def.time ? ctx.time : undefined, avatar: ctx.avatar };
}

/** Runs an edit on the studio's motion with the panel's values (range: IN/OUT, time: the playhead). */
export function runPanelEdit(def: EditDefinition, ctx: EditContext, state: EditState): EditOutcome {
  return runEdit(def, panelEditInput(def, ctx, state), state.values);
}
