/**
 * The edit panel's sections (issue 11: edits grouped, each section collapsible), so the list fits
 * small windows: range edits, timing, pose clean-up, file-level. An edit the table does not know
 * goes to "More" (new registry entries show up without a change here).
 */
import type { MessageKey } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tText } from '../ui/i18n';

const GROUPS: readonly { id: string; title: MessageKey; edits: readonly string[]; open: boolean }[] = [
  { id: 'range', title: 'studio.editGroup.range', edits: ['keep', 'delete'], open: true },
  { id: 'timing', title: 'studio.editGroup.timing', edits: ['speed', 'reverse', 'loop', 'resample'], open: true },
  { id: 'pose', title: 'studio.editGroup.pose', edits: ['mirror', 'in-place', 'smooth', 'fix', 'strip', 'pin-feet', 'pin', 'fit'], open: true },
  { id: 'file', title: 'studio.editGroup.file', edits: ['optimize', 'join', 'bake-intermediate'], open: true },
];

export interface EditSections {
  readonly element: HTMLElement;
  /** The section body an edit's card goes in. */
  bodyFor(editId: string): HTMLElement;
}

export function createEditSections(): EditSections {
  const element = h('div', { class: 'edit-list' });
  const bodies = new Map<string, HTMLElement>();
  const make = (id: string, title: MessageKey, open: boolean) => {
    const body = h('div', { class: 'edit-group-body' });
    const details = h('details', { class: 'edit-group', 'data-group': id, open }, tText(h('summary', {}), title), body);
    element.append(details);
    bodies.set(id, body);
    return body;
  };
  for (const g of GROUPS) make(g.id, g.title, g.open);
  const groupOf = new Map(GROUPS.flatMap((g) => g.edits.map((e) => [e, g.id] as const)));
  return {
    element,
    bodyFor(editId) {
      const g = groupOf.get(editId) ?? 'more';
      return bodies.get(g) ?? make('more', 'studio.editGroup.more', true);
    },
  };
}
