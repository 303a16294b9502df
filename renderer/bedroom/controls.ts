/**
 * The bedroom's control panel: real buttons and inputs with accessible names, so keyboard users
 * and tests drive it like anyone else. It only reports what the user did; the controller decides.
 */
import {
  AUTO_SEC_MAX, AUTO_SEC_MIN, OFFSET_LIMIT_M, TURN_LIMIT_DEG, type BedroomSettings, type LyingPose, type PlacementOffsets,
  type PoseSlot, type TurnSides,
} from '../../shared/contract/bedroomSettings';
import type { ViewName } from './cameraRig';
import { t, type MessageKey } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';
import { filePicker } from '../ui/filePicker';

export interface ControlEvents {
  sleep(): void;
  wake(): void;
  turnOver(): void;
  choosePose(pose: LyingPose): void;
  setSides(sides: TurnSides): void;
  setAutoTurn(on: boolean): void;
  setAutoSec(sec: number): void;
  /** `final` is false while a slider is dragged (preview) and true when it is released (save). */
  setOffsets(offsets: PlacementOffsets, final: boolean): void;
  resetPlacement(): void;
  /** A file picked by the user, and the pose it is to fill (asked in the panel). */
  loadPoseFile(file: File, slot: PoseSlot): void;
  /** A pose file from the user's folders and the pose it fills, or null for the built-in poses. */
  choosePoseFromFolders(path: string | null, slot: PoseSlot): void;
  view(name: ViewName): void;
  setSound(muted: boolean, volume: number, final: boolean): void;
  enterVr(): void;
}

export interface Controls {
  readonly element: HTMLElement;
  showSettings(s: BedroomSettings, offsets: PlacementOffsets): void;
  setStatus(text: string, kind?: 'info' | 'error'): void;
  /** `title` is the whole heading ("Pose report: the back (built-in back pose)"). */
  setReport(lines: readonly string[], warnings: readonly string[], title: string): void;
  setSleeping(sleeping: boolean): void;
  setNextTurn(text: string): void;
  /** The pose files of the opened folders, with the files now filling the poses. */
  setPoseFiles(files: readonly { path: string; name: string }[], chosen: { back?: string; side?: string }): void;
  /** Show the Enter VR button (only when the browser offers an immersive VR session). */
  setVrAvailable(available: boolean): void;
}

/** The placement sliders, named for what they do, in the bed's directions. */
export const PLACEMENT_SLIDERS = [
  { key: 'towardHead', label: 'bedroom.placement.towardHead', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'towardWall', label: 'bedroom.placement.towardWall', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'up', label: 'bedroom.placement.up', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'turn', label: 'bedroom.placement.turn', min: -TURN_LIMIT_DEG, max: TURN_LIMIT_DEG, step: 1, unit: '°' },
] as const satisfies readonly { readonly key: string; readonly label: MessageKey; readonly min: number; readonly max: number; readonly step: number; readonly unit: string }[];

const POSES: readonly [LyingPose, MessageKey][] = [['back', 'bedroom.pose.back'], ['right', 'bedroom.pose.right'], ['left', 'bedroom.pose.left']];
const VIEWS: readonly [ViewName, MessageKey][] = [
  ['bedside', 'bedroom.views.bedside'], ['above', 'bedroom.views.above'], ['foot', 'bedroom.views.foot'], ['reset', 'bedroom.views.reset'],
];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

export function formatOffset(v: number, unit: string): string {
  if (unit === 'cm') return t('bedroom.unit.cm', { value: `${v > 0 ? '+' : ''}${Math.round(v * 100)}` });
  return t('bedroom.unit.deg', { value: `${v > 0 ? '+' : ''}${v.toFixed(0)}` });
}

/** A button whose text and title follow the language. */
function button(text: MessageKey, title?: MessageKey): HTMLButtonElement {
  const b = tText(el('button', { type: 'button' }), text);
  return title ? tAttr(b, 'title', title) : b;
}

/** A label with a text (following the language) and the control after it. */
function labelled(text: MessageKey, control: HTMLElement, before = false): HTMLLabelElement {
  const words = tText(el('span', {}), text);
  return before ? el('label', {}, control, ' ', words) : el('label', {}, words, ' ', control);
}

export function buildControls(events: ControlEvents): Controls {
  const panel = el('div', { className: 'bedroom-panel' });
  panel.setAttribute('role', 'region');
  tAttr(panel, 'aria-label', 'bedroom.panel');

  const sleepBtn = button('bedroom.sleep', 'bedroom.sleepHelp');
  const wakeBtn = button('bedroom.wake', 'bedroom.wakeHelp');
  const turnBtn = button('bedroom.turnOver', 'bedroom.turnOverHelp');
  sleepBtn.addEventListener('click', () => events.sleep());
  wakeBtn.addEventListener('click', () => events.wake());
  turnBtn.addEventListener('click', () => events.turnOver());
  panel.append(el('div', { className: 'bedroom-row' }, sleepBtn, wakeBtn, turnBtn));

  const status = el('p', { className: 'bedroom-status' });
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  panel.append(status);

  const poseSet = el('fieldset', { className: 'bedroom-poses' }, tText(el('legend'), 'bedroom.poses'));
  const radios = {} as Record<LyingPose, HTMLInputElement>;
  // One group name per mounted bedroom, so two bedrooms on a page never share radios.
  const group = `bedroom-pose-${Math.random().toString(36).slice(2)}`;
  for (const [pose, text] of POSES) {
    const r = el('input', { type: 'radio', name: group, value: pose });
    r.addEventListener('change', () => r.checked && events.choosePose(pose));
    radios[pose] = r;
    poseSet.append(labelled(text, r, true));
  }
  const both = el('input', { type: 'checkbox' });
  both.addEventListener('change', () => events.setSides(both.checked ? 'both' : 'right'));
  poseSet.append(tAttr(labelled('bedroom.bothSides', both, true), 'title', 'bedroom.bothSidesHelp'));
  panel.append(poseSet);

  const auto = el('input', { type: 'checkbox' });
  auto.addEventListener('change', () => events.setAutoTurn(auto.checked));
  const interval = el('input', { type: 'number', min: String(AUTO_SEC_MIN), max: String(AUTO_SEC_MAX), step: '1' });
  interval.addEventListener('change', () => {
    const v = Math.round(Number(interval.value));
    if (Number.isFinite(v)) events.setAutoSec(Math.min(AUTO_SEC_MAX, Math.max(AUTO_SEC_MIN, v)));
  });
  const nextTurn = el('span', { className: 'bedroom-next' });
  panel.append(
    el('div', { className: 'bedroom-row' }, labelled('bedroom.autoTurn', auto, true)),
    el('div', { className: 'bedroom-row' }, labelled('bedroom.interval', interval), nextTurn),
  );

  const sliders = {} as Record<(typeof PLACEMENT_SLIDERS)[number]['key'], { input: HTMLInputElement; out: HTMLOutputElement }>;
  const placement = el('fieldset', { className: 'bedroom-placement' }, tText(el('legend'), 'bedroom.placement'));
  const readOffsets = (): PlacementOffsets => ({
    towardHead: Number(sliders.towardHead.input.value),
    towardWall: Number(sliders.towardWall.input.value),
    up: Number(sliders.up.input.value),
    turn: Number(sliders.turn.input.value),
  });
  for (const a of PLACEMENT_SLIDERS) {
    const input = el('input', { type: 'range', min: String(a.min), max: String(a.max), step: String(a.step) });
    tAttr(input, 'aria-label', a.label);
    // The slider itself carries its value for assistive tech (aria-valuetext); the visible readout
    // is hidden from it so the panel has exactly one status region.
    const out = el('output', {});
    out.setAttribute('aria-hidden', 'true');
    input.addEventListener('input', () => {
      out.textContent = formatOffset(Number(input.value), a.unit);
      input.setAttribute('aria-valuetext', out.textContent);
      events.setOffsets(readOffsets(), false);
    });
    input.addEventListener('change', () => events.setOffsets(readOffsets(), true));
    sliders[a.key] = { input, out };
    placement.append(el('label', { className: 'bedroom-slider' }, tText(el('span'), a.label), el('span', { className: 'bedroom-slider-row' }, input, out)));
  }
  const reset = button('bedroom.placement.reset');
  reset.addEventListener('click', () => events.resetPlacement());
  placement.append(reset);
  panel.append(placement);

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
  panel.append(el('div', { className: 'bedroom-row' }, labelled('bedroom.file', filePicker(file))));

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
  panel.append(el('div', { className: 'bedroom-row' }, labelled('bedroom.folders', folderPoses)), ask);

  const viewRow = el('div', { className: 'bedroom-row bedroom-views' });
  viewRow.setAttribute('role', 'group');
  tAttr(viewRow, 'aria-label', 'bedroom.views');
  for (const [name, text] of VIEWS) {
    const b = button(text);
    b.addEventListener('click', () => events.view(name));
    viewRow.append(b);
  }
  panel.append(viewRow);

  const mute = el('input', { type: 'checkbox' });
  const volume = el('input', { type: 'range', min: '0', max: '1', step: '0.05' });
  tAttr(volume, 'aria-label', 'bedroom.sound.volumeLabel');
  const sound = (final: boolean) => events.setSound(mute.checked, Number(volume.value), final);
  mute.addEventListener('change', () => sound(true));
  volume.addEventListener('input', () => sound(false));
  volume.addEventListener('change', () => sound(true));
  panel.append(el('div', { className: 'bedroom-row' }, labelled('bedroom.sound.mute', mute, true), tAttr(labelled('bedroom.sound.volume', volume), 'title', 'bedroom.sound.volumeLabel')));

  const vrBtn = button('bedroom.vr.enter', 'bedroom.vr.enterHelp');
  vrBtn.hidden = true;
  vrBtn.addEventListener('click', () => events.enterVr());
  panel.append(el('div', { className: 'bedroom-row' }, vrBtn));

  const reportTitle = tText(el('h3'), 'bedroom.report');
  const reportList = el('ul', { className: 'bedroom-report-lines' });
  const reportWarn = el('ul', { className: 'bedroom-report-warnings' });
  const report = el('section', { className: 'bedroom-report' }, reportTitle, reportList, reportWarn);
  tAttr(report, 'aria-label', 'bedroom.report');
  panel.append(report);

  return {
    element: panel,
    showSettings(s, offsets) {
      radios[s.pose].checked = true;
      radios.left.disabled = s.sides !== 'both';
      both.checked = s.sides === 'both';
      auto.checked = s.autoTurn;
      interval.value = String(s.autoSec);
      for (const a of PLACEMENT_SLIDERS) {
        sliders[a.key].input.value = String(offsets[a.key]);
        sliders[a.key].out.textContent = formatOffset(offsets[a.key], a.unit);
        sliders[a.key].input.setAttribute('aria-valuetext', sliders[a.key].out.textContent ?? '');
      }
      mute.checked = s.sound.muted;
      volume.value = String(s.sound.volume);
    },
    setStatus(text, kind = 'info') {
      status.textContent = text;
      status.dataset.kind = kind;
    },
    setReport(lines, warnings, title) {
      reportTitle.textContent = title;
      reportList.replaceChildren(...lines.map((l) => el('li', { textContent: l })));
      reportWarn.replaceChildren(...(warnings.length ? warnings : [t('bedroom.report.ok')]).map((w) => el('li', { textContent: w, className: warnings.length ? 'bad' : 'good' })));
    },
    setSleeping(sleeping) {
      sleepBtn.disabled = sleeping;
      wakeBtn.disabled = !sleeping;
      turnBtn.disabled = !sleeping;
    },
    setNextTurn(text) {
      nextTurn.textContent = text;
    },
    setPoseFiles(files, chosen) {
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
    setVrAvailable(available) {
      vrBtn.hidden = !available;
    },
  };
}
