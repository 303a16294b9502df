/**
 * The questions the studio asks while opening a file (Studio.questions): which take of an FBX/glTF
 * file with several (a table of each take's name, duration, fps and keys, as `vrma-studio convert
 * --list-takes` prints them, from the same core module), and whether a VRM that also carries
 * animations is the avatar or a motion. Cancel (or Escape) keeps the current document.
 */
import type { OpenQuestions } from '../app/openQuestions';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import { choose } from '../ui/dialog';
import { h } from '../ui/dom';
import { t, formatNumber } from '../../shared/i18n';
import { preferredTake } from '../../shared/formats/preferredTake';

export async function chooseTake(file: string, takes: readonly TakeInfo[]): Promise<string | null> {
  // The longest keyed take is preselected; a take with no keys is listed but cannot be opened.
  const preferred = preferredTake(takes);
  const rows = takes.map((take, i) => {
    const empty = take.keys === 0;
    const radio = h('input', { type: 'radio', name: 'take', value: String(i), id: `take-${i}`, checked: take === preferred && !empty, disabled: empty }) as HTMLInputElement;
    const row = h(
      'tr',
      { class: `take-row${empty ? ' empty' : ''}`, 'data-take': take.name },
      h('td', {}, radio, h('label', { for: `take-${i}`, text: take.name })),
      h('td', { class: 'num', text: `${formatNumber(take.duration, 2, 2)} s` }),
      h('td', { class: 'num', text: formatNumber(take.fps, 2) }),
      h('td', { class: 'num', text: empty ? t('convert.takes.noKeys') : formatNumber(take.keys, 0) }),
    );
    // A click anywhere on the row picks the take; a double click opens it.
    row.addEventListener('click', () => {
      if (!empty) radio.checked = true;
    });
    row.addEventListener('dblclick', () => document.querySelector<HTMLButtonElement>('#take-picker [data-choice="open"]')?.click());
    return { row, radio };
  });
  const table = h(
    'table',
    { class: 'take-table', 'aria-label': t('convert.takes.list', { file }) },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { text: t('convert.takes.name') }),
        h('th', { class: 'num', text: t('convert.takes.duration') }),
        h('th', { class: 'num', text: t('convert.takes.fps') }),
        h('th', { class: 'num', text: t('convert.takes.keys') }),
      ),
    ),
    h('tbody', {}, ...rows.map((r) => r.row)),
  );
  const body = h('div', { class: 'take-list' }, table);
  const choice = await choose({
    id: 'take-picker',
    title: t('convert.takes.title'),
    text: t('convert.takes.text', { file, count: takes.length }),
    body,
    choices: [
      { id: 'open', label: t('convert.takes.open'), default: true },
      { id: 'cancel', label: t('convert.takes.cancel') },
    ],
    cancel: 'cancel',
    focus: rows.find((r) => r.radio.checked)?.radio ?? rows[0]?.radio,
  });
  if (choice !== 'open') return null;
  const picked = rows.findIndex((r) => r.radio.checked);
  return picked < 0 ? (preferred?.name ?? null) : takes[picked].name;
}

export async function avatarOrMotion(file: string, animations: number): Promise<'avatar' | 'motion' | null> {
  const choice = await choose({
    id: 'avatar-or-motion',
    title: t('convert.use.title'),
    text: t('convert.use.text', { file, count: animations }),
    choices: [
      { id: 'avatar', label: t('convert.use.avatar'), default: true },
      { id: 'motion', label: t('convert.use.motion') },
      { id: 'cancel', label: t('convert.use.cancel') },
    ],
    cancel: 'cancel',
  });
  return choice === 'cancel' ? null : choice;
}

/** A BVH cut short: open the frames that read (the studio's dialog; Cancel reports the error). */
export async function partialBvh(file: string, frames: number, total: number): Promise<boolean> {
  const choice = await choose({
    id: 'partial-bvh-dialog',
    title: t('bvh.partialTitle'),
    text: t('bvh.partialText', { file, frames, total }),
    choices: [
      { id: 'open', label: t('bvh.partialOpen', { frames }), default: true },
      { id: 'cancel', label: t('bvh.partialCancel') },
    ],
    cancel: 'cancel',
  });
  return choice === 'open';
}

export const openQuestions: OpenQuestions = { chooseTake, avatarOrMotion, partialBvh };
