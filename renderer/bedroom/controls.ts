/**
 * The bedroom's control panel: real buttons and inputs with accessible names, so keyboard users
 * and tests drive it like anyone else. It only reports what the user did; the controller decides.
 */
import {
  AUTO_SEC_MAX, AUTO_SEC_MIN, OFFSET_LIMIT_M, TURN_LIMIT_DEG, type BedroomSettings, type LyingPose, type PlacementOffsets,
  type PoseSlot, type TurnSides,
} from '../../shared/contract/bedroomSettings';
import type { ViewName } from './cameraRig';

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
  { key: 'towardHead', label: 'Toward the head / feet', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'towardWall', label: 'Toward the wall / edge', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'up', label: 'Up / down', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'turn', label: 'Turn', min: -TURN_LIMIT_DEG, max: TURN_LIMIT_DEG, step: 1, unit: '°' },
] as const;

const POSES: readonly [LyingPose, string][] = [['back', 'Back'], ['right', 'Right side'], ['left', 'Left side']];
const VIEWS: readonly [ViewName, string][] = [['bedside', 'Bedside'], ['above', 'Above'], ['foot', 'Foot of the bed'], ['reset', 'Reset view']];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

export function formatOffset(v: number, unit: string): string {
  if (unit === 'cm') return `${v > 0 ? '+' : ''}${Math.round(v * 100)} cm`;
  return `${v > 0 ? '+' : ''}${v.toFixed(0)}°`;
}

export function buildControls(events: ControlEvents): Controls {
  const panel = el('div', { className: 'bedroom-panel' });
  panel.setAttribute('role', 'region');
  panel.setAttribute('aria-label', 'Bedroom controls');

  const sleepBtn = el('button', { type: 'button', textContent: 'Sleep', title: 'Lie down on the bed' });
  const wakeBtn = el('button', { type: 'button', textContent: 'Wake', title: 'Get up and stand' });
  const turnBtn = el('button', { type: 'button', textContent: 'Turn over', title: 'Turn to the next pose (only while asleep)' });
  sleepBtn.addEventListener('click', () => events.sleep());
  wakeBtn.addEventListener('click', () => events.wake());
  turnBtn.addEventListener('click', () => events.turnOver());
  panel.append(el('div', { className: 'bedroom-row' }, sleepBtn, wakeBtn, turnBtn));

  const status = el('p', { className: 'bedroom-status' });
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  panel.append(status);

  const poseSet = el('fieldset', { className: 'bedroom-poses' }, el('legend', { textContent: 'Lying pose' }));
  const radios = {} as Record<LyingPose, HTMLInputElement>;
  // One group name per mounted bedroom, so two bedrooms on a page never share radios.
  const group = `bedroom-pose-${Math.random().toString(36).slice(2)}`;
  for (const [pose, text] of POSES) {
    const r = el('input', { type: 'radio', name: group, value: pose });
    r.addEventListener('change', () => r.checked && events.choosePose(pose));
    radios[pose] = r;
    poseSet.append(el('label', {}, r, ` ${text}`));
  }
  const both = el('input', { type: 'checkbox' });
  both.addEventListener('change', () => events.setSides(both.checked ? 'both' : 'right'));
  poseSet.append(el('label', { title: 'Turn-overs go back → right side → back → left side' }, both, ' Turn onto both sides'));
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
    el('div', { className: 'bedroom-row' }, el('label', {}, auto, ' Auto turn-over')),
    el('div', { className: 'bedroom-row' }, el('label', {}, 'Turn-over interval (s) ', interval), nextTurn),
  );

  const sliders = {} as Record<(typeof PLACEMENT_SLIDERS)[number]['key'], { input: HTMLInputElement; out: HTMLOutputElement }>;
  const placement = el('fieldset', { className: 'bedroom-placement' }, el('legend', { textContent: 'Placement on the bed (this avatar)' }));
  const readOffsets = (): PlacementOffsets => ({
    towardHead: Number(sliders.towardHead.input.value),
    towardWall: Number(sliders.towardWall.input.value),
    up: Number(sliders.up.input.value),
    turn: Number(sliders.turn.input.value),
  });
  for (const a of PLACEMENT_SLIDERS) {
    const input = el('input', { type: 'range', min: String(a.min), max: String(a.max), step: String(a.step) });
    input.setAttribute('aria-label', a.label);
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
    placement.append(el('label', { className: 'bedroom-slider' }, el('span', { textContent: a.label }), el('span', { className: 'bedroom-slider-row' }, input, out)));
  }
  const reset = el('button', { type: 'button', textContent: 'Reset placement' });
  reset.addEventListener('click', () => events.resetPlacement());
  placement.append(reset);
  panel.append(placement);

  // Loading a pose asks which pose it fills (back or side) before anything is replaced.
  const ask = el('div', { className: 'bedroom-ask', hidden: true });
  ask.setAttribute('role', 'group');
  ask.setAttribute('aria-label', 'Which pose does this file fill?');
  const askText = el('p', {});
  const asBack = el('button', { type: 'button', textContent: 'Use as the back pose' });
  const asSide = el('button', { type: 'button', textContent: 'Use as the side pose' });
  const cancel = el('button', { type: 'button', textContent: 'Cancel' });
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
    askText.textContent = `${name}: which pose does it fill?`;
    pending = then;
    ask.hidden = false;
    asSide.focus();
  };

  const file = el('input', { type: 'file', accept: '.vrma,.vpd' });
  file.setAttribute('aria-label', 'Load sleep pose (.vrma or .vpd)');
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    file.value = '';
    if (f) askSlot(f.name, (slot) => slot && events.loadPoseFile(f, slot));
  });
  panel.append(el('div', { className: 'bedroom-row' }, el('label', {}, 'Sleep pose file ', file)));

  const folderPoses = el('select', { className: 'bedroom-folder-poses' });
  folderPoses.setAttribute('aria-label', 'Sleep pose from your folders');
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
  panel.append(el('div', { className: 'bedroom-row' }, el('label', {}, 'From your folders ', folderPoses)), ask);

  const viewRow = el('div', { className: 'bedroom-row bedroom-views' });
  viewRow.setAttribute('role', 'group');
  viewRow.setAttribute('aria-label', 'View');
  for (const [name, text] of VIEWS) {
    const b = el('button', { type: 'button', textContent: text });
    b.addEventListener('click', () => events.view(name));
    viewRow.append(b);
  }
  panel.append(viewRow);

  const mute = el('input', { type: 'checkbox' });
  const volume = el('input', { type: 'range', min: '0', max: '1', step: '0.05' });
  volume.setAttribute('aria-label', 'Breathing sound volume');
  const sound = (final: boolean) => events.setSound(mute.checked, Number(volume.value), final);
  mute.addEventListener('change', () => sound(true));
  volume.addEventListener('input', () => sound(false));
  volume.addEventListener('change', () => sound(true));
  panel.append(el('div', { className: 'bedroom-row' }, el('label', {}, mute, ' Mute breathing'), el('label', {}, 'Volume ', volume)));

  const vrBtn = el('button', { type: 'button', textContent: 'Enter VR', hidden: true, title: 'Visit the bedroom with a VR headset' });
  vrBtn.addEventListener('click', () => events.enterVr());
  panel.append(el('div', { className: 'bedroom-row' }, vrBtn));

  const reportTitle = el('h3', { textContent: 'Pose report' });
  const reportList = el('ul', { className: 'bedroom-report-lines' });
  const reportWarn = el('ul', { className: 'bedroom-report-warnings' });
  const report = el('section', { className: 'bedroom-report' }, reportTitle, reportList, reportWarn);
  report.setAttribute('aria-label', 'Pose report');
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
      reportTitle.textContent = `Pose report: ${title}`;
      reportList.replaceChildren(...lines.map((l) => el('li', { textContent: l })));
      reportWarn.replaceChildren(...(warnings.length ? warnings : ['No problems found']).map((w) => el('li', { textContent: w, className: warnings.length ? 'bad' : 'good' })));
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
      const options = [el('option', { value: '', textContent: files.length ? 'Built-in poses' : 'Built-in poses (no poses in your folders)' })];
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

export const BEDROOM_CSS = `
.bedroom { position: relative; display: flex; width: 100%; height: 100%; min-height: 360px; background: #0b1020; color: #dfe3f0; font: 13px/1.4 system-ui, sans-serif; overflow: hidden; }
.bedroom-view { position: relative; flex: 1; min-width: 0; }
.bedroom-view canvas { display: block; width: 100%; height: 100%; outline: none; touch-action: none; }
.bedroom-panel { flex: 0 0 264px; width: 264px; max-height: 100%; padding: 10px 12px; overflow-y: auto; overflow-x: hidden; background: #141a2c; border-left: 1px solid #263050; box-sizing: border-box; }
.bedroom-panel fieldset { border: 1px solid #2c3658; border-radius: 6px; margin: 8px 0; padding: 6px 8px; min-width: 0; }
.bedroom-panel fieldset label { display: inline-block; margin-right: 8px; }
.bedroom-row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
.bedroom-panel button { background: #26325a; color: #eef; border: 1px solid #3a4a80; border-radius: 5px; padding: 4px 8px; cursor: pointer; }
.bedroom-panel button:disabled { opacity: 0.45; cursor: default; }
.bedroom-panel button:focus-visible, .bedroom-panel input:focus-visible, .bedroom-panel select:focus-visible { outline: 2px solid #8fb0ff; outline-offset: 1px; }
.bedroom-panel label.bedroom-slider { display: block; margin: 4px 0; }
.bedroom-slider-row { display: grid; grid-template-columns: 1fr 52px; align-items: center; gap: 4px; }
.bedroom-slider-row input { width: 100%; min-width: 0; }
.bedroom-panel input[type=number] { width: 64px; }
.bedroom-row > label { min-width: 0; max-width: 100%; }
.bedroom-panel input[type=file] { display: block; width: 100%; max-width: 100%; margin-top: 2px; }
.bedroom-folder-poses { max-width: 230px; }
.bedroom-ask { border: 1px solid #5a6aa8; border-radius: 6px; padding: 6px 8px; background: #1b2342; }
.bedroom-ask p { margin: 0 0 4px; }
.bedroom-status { min-height: 2.8em; margin: 6px 0; color: #bcd; }
.bedroom-status[data-kind=error] { color: #ffb3a8; }
.bedroom-report h3 { font-size: 13px; margin: 8px 0 4px; }
.bedroom-report ul { margin: 0; padding-left: 16px; }
.bedroom-report .bad { color: #ffb3a8; }
.bedroom-report .good { color: #9fd8a8; }
.bedroom-next { color: #8a94b8; font-size: 12px; }
`;
