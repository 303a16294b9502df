/**
 * Loading a pose in the bedroom: a file picked by the user, or a pose file of the opened folders.
 * Either asks which pose it fills (back or side) before anything is replaced.
 */
import type { PoseSlot } from '../../shared/contract/bedroomSettings';
import { t } from '../../shared/i18n';
import { tAttr } from '../ui/i18n';
import { filePicker } from '../ui/filePicker';
import { button, el, labelled } from './controlElements';

export interface PoseFileEvents {
  loadPoseFile(file: File, slot: PoseSlot): void;
  choosePoseFromFolders(path: string | null, slot: PoseSlot): void;
}

export function createPoseFileControls(events: PoseFileEvents) {
  // Loading a pose asks which pose it fills (back or side) before anything is replaced.
  const ask = el('div', { className: 'bedroom-ask', hidden: true });
  ask.setAttribute('role', 'group');
  tAttr(ask, 'aria-label', 'bedroom.ask');
  const askText = el('p', {});
  const asBack = button('bedroom.ask.back');
  const asSide = button('bedroom.ask.side');
  const cancel = button('bedroom.ask.cancel');
  ask.append(askText, el('div', { className: 'bedroom-row' }, asBack, asSide, cancel));
  let pending: ((slot: PoseSlot | null) => void) | null = null;
  const answer = (slot: PoseSlot | null) => {
    ask.hidden = true;
    const p = pending;
    pending = null;
    p?.(slot);
  };
  asBack.addEventListener('click', () => answer('back'));
  asSide.addEventListener('click', () => answer('side'));
  cancel.addEventListener('click', () => answer(null));
  const askSlot = (name: string, then: (slot: PoseSlot | null) => void) => {
    if (pending) answer(null);
    askText.textContent = t('bedroom.ask.question', { file: name });
    pending = then;
    ask.hidden = false;
    asSide.focus();
  };

  const file = el('input', { type: 'file', accept: '.vrma,.vpd' });
  tAttr(file, 'aria-label', 'bedroom.file.input');
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    file.value = '';
    if (f) askSlot(f.name, (slot) => slot && events.loadPoseFile(f, slot));
  });
  const fileRow = el('div', { className: 'bedroom-row' }, labelled('bedroom.file', filePicker(file)));

  const folderPoses = el('select', { className: 'bedroom-folder-poses' });
  tAttr(folderPoses, 'aria-label', 'bedroom.folders.input');
  let chosenFiles: { back?: string; side?: string } = {};
  folderPoses.addEventListener('change', () => {
    const path = folderPoses.value || null;
    const restore = () => (folderPoses.value = chosenFiles.side ?? chosenFiles.back ?? '');
    if (!path) {
      events.choosePoseFromFolders(null, chosenFiles.side ? 'side' : 'back');
      return;
    }
    askSlot(folderPoses.selectedOptions[0]?.textContent ?? path, (slot) => (slot ? events.choosePoseFromFolders(path, slot) : restore()));
  });
  const folderRow = el('div', { className: 'bedroom-row' }, labelled('bedroom.folders', folderPoses));
  return {
    /** The file row, the folders' row and the question, in the panel's order. */
    elements: [fileRow, folderRow, ask] as const,
    setPoseFiles(files: readonly { path: string; name: string }[], chosen: { back?: string; side?: string }) {
      chosenFiles = chosen;
      const options = [el('option', { value: '', textContent: t(files.length ? 'bedroom.folders.builtIn' : 'bedroom.folders.builtInNone') })];
      for (const f of files) options.push(el('option', { value: f.path, textContent: f.name, title: f.path }));
      // A remembered file that is not (or no longer) listed still shows as the current choice.
      for (const path of [chosen.back, chosen.side]) {
        if (path && !files.some((f) => f.path === path)) options.push(el('option', { value: path, textContent: path.split(/[\\/]/).pop() ?? path, title: path }));
      }
      folderPoses.replaceChildren(...options);
      folderPoses.value = chosen.side ?? chosen.back ?? '';
    },
  };
}
