/**
 * The bedroom's control panel: real buttons and inputs with accessible names, so keyboard users
 * and tests drive it like anyone else. It only reports what the user did; the controller decides.
 */
import {
  AUTO_SEC_MAX,
  AUTO_SEC_MIN,
  type BedroomSettings,
  type LyingPose,
  type PlacementOffsets,
  type PoseSlot,
  type TurnSides,
} from '../../shared/contract/bedroomSettings';
import type { ViewName } from './cameraRig';
import { t, type MessageKey } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';
import { button, el, labelled } from './controlElements';
import { createPlacementControls } from './placementControls';
import { createPoseFileControls } from './poseFileControls';

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

const POSES: readonly [LyingPose, MessageKey][] = [['back', 'bedroom.pose.back'], ['right', 'bedroom.pose.right'], ['left', 'bedroom.pose.left']];
const VIEWS: readonly [ViewName, MessageKey][] = [
  ['bedside', 'bedroom.views.bedside'],
  ['above', 'bedroom.views.above'],
  ['foot', 'bedroom.views.foot'],
  ['reset', 'bedroom.views.reset'],
];

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

  const placement = createPlacementControls(events);
  const poseFiles = createPoseFileControls(events);
  panel.append(placement.element, ...poseFiles.elements);

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
      placement.show(offsets);
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
    setPoseFiles: (files, chosen) => poseFiles.setPoseFiles(files, chosen),
    setVrAvailable(available) {
      vrBtn.hidden = !available;
    },
  };
}
