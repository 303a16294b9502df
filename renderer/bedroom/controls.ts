/**
 * The bedroom's control panel: real buttons and inputs with accessible names, so keyboard users
 * and tests drive it like anyone else. It only reports what the user did; the scene decides.
 */
import { AUTO_SEC_MAX, AUTO_SEC_MIN, OFFSET_LIMIT_M, YAW_LIMIT_DEG, type BedroomSettings, type LyingPose, type PlacementOffsets } from './settings';

export interface ControlEvents {
  sleep(): void;
  wake(): void;
  turnOver(): void;
  choosePose(pose: LyingPose): void;
  setAutoTurn(on: boolean): void;
  setAutoSec(sec: number): void;
  /** `final` is false while a slider is dragged (preview) and true when it is released (save). */
  setOffsets(offsets: PlacementOffsets, final: boolean): void;
  resetPlacement(): void;
  loadPoseFile(file: File): void;
  /** A pose file from the user's folders, or null for the built-in pose. */
  choosePoseFromFolders(path: string | null): void;
}

export interface Controls {
  readonly element: HTMLElement;
  showSettings(s: BedroomSettings): void;
  setStatus(text: string, kind?: 'info' | 'error'): void;
  setReport(lines: readonly string[], warnings: readonly string[], title: string): void;
  setSleeping(sleeping: boolean): void;
  setNextTurn(text: string): void;
  /** The pose files of the opened folders, with `selected` (a path, or undefined for none) chosen. */
  setPoseFiles(files: readonly { path: string; name: string }[], selected: string | undefined): void;
}

const AXES = [
  { key: 'x', label: 'X', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'm' },
  { key: 'y', label: 'Y', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'm' },
  { key: 'z', label: 'Z', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'm' },
  { key: 'yaw', label: 'Yaw', min: -YAW_LIMIT_DEG, max: YAW_LIMIT_DEG, step: 1, unit: '°' },
] as const;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

export function buildControls(events: ControlEvents): Controls {
  const panel = el('div', { className: 'bedroom-panel' });
  panel.setAttribute('role', 'region');
  panel.setAttribute('aria-label', 'Bedroom controls');

  const sleepBtn = el('button', { type: 'button', textContent: 'Sleep', title: 'Lie down on the bed' });
  const wakeBtn = el('button', { type: 'button', textContent: 'Wake', title: 'Get up and stand' });
  const turnBtn = el('button', { type: 'button', textContent: 'Turn over', title: 'Turn from back to side or side to back' });
  sleepBtn.addEventListener('click', () => events.sleep());
  wakeBtn.addEventListener('click', () => events.wake());
  turnBtn.addEventListener('click', () => events.turnOver());
  panel.append(el('div', { className: 'bedroom-row' }, sleepBtn, wakeBtn, turnBtn));

  const poseSet = el('fieldset', { className: 'bedroom-poses' }, el('legend', { textContent: 'Lying pose' }));
  const radios: Record<LyingPose, HTMLInputElement> = {} as Record<LyingPose, HTMLInputElement>;
  // One group name per mounted bedroom, so two bedrooms on a page never share radios.
  const group = `bedroom-pose-${Math.random().toString(36).slice(2)}`;
  for (const [pose, text] of [['back', 'Back'], ['side', 'Side']] as const) {
    const r = el('input', { type: 'radio', name: group, value: pose });
    r.addEventListener('change', () => r.checked && events.choosePose(pose));
    radios[pose] = r;
    poseSet.append(el('label', {}, r, ` ${text}`));
  }
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

  const sliders = {} as Record<(typeof AXES)[number]['key'], { input: HTMLInputElement; out: HTMLOutputElement }>;
  const placement = el('fieldset', { className: 'bedroom-placement' }, el('legend', { textContent: 'Placement offsets' }));
  const readOffsets = (): PlacementOffsets => ({
    x: Number(sliders.x.input.value),
    y: Number(sliders.y.input.value),
    z: Number(sliders.z.input.value),
    yaw: Number(sliders.yaw.input.value),
  });
  for (const a of AXES) {
    const input = el('input', { type: 'range', min: String(a.min), max: String(a.max), step: String(a.step) });
    input.setAttribute('aria-label', a.label);
    // The slider itself carries its value for assistive tech (aria-valuetext); the visible readout
    // is hidden from it so the panel has exactly one status region.
    const out = el('output', {});
    out.setAttribute('aria-hidden', 'true');
    input.addEventListener('input', () => {
      out.textContent = fmt(Number(input.value), a.unit);
      input.setAttribute('aria-valuetext', out.textContent);
      events.setOffsets(readOffsets(), false);
    });
    input.addEventListener('change', () => events.setOffsets(readOffsets(), true));
    sliders[a.key] = { input, out };
    placement.append(el('label', { className: 'bedroom-slider' }, el('span', { textContent: a.label }), input, out));
  }
  const reset = el('button', { type: 'button', textContent: 'Reset placement' });
  reset.addEventListener('click', () => events.resetPlacement());
  placement.append(reset);
  panel.append(placement);

  const file = el('input', { type: 'file', accept: '.vrma,.vpd' });
  file.setAttribute('aria-label', 'Load sleep pose (.vrma or .vpd)');
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (f) events.loadPoseFile(f);
    file.value = '';
  });
  panel.append(el('div', { className: 'bedroom-row' }, el('label', {}, 'Sleep pose file ', file)));

  const folderPoses = el('select', { className: 'bedroom-folder-poses' });
  folderPoses.setAttribute('aria-label', 'Sleep pose from your folders');
  folderPoses.addEventListener('change', () => events.choosePoseFromFolders(folderPoses.value || null));
  panel.append(el('div', { className: 'bedroom-row' }, el('label', {}, 'From your folders ', folderPoses)));

  const status = el('p', { className: 'bedroom-status' });
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  panel.append(status);

  const reportTitle = el('h3', { textContent: 'Pose report' });
  const reportList = el('ul', { className: 'bedroom-report-lines' });
  const reportWarn = el('ul', { className: 'bedroom-report-warnings' });
  const report = el('section', { className: 'bedroom-report' }, reportTitle, reportList, reportWarn);
  report.setAttribute('aria-label', 'Pose report');
  panel.append(report);

  return {
    element: panel,
    showSettings(s) {
      radios[s.pose].checked = true;
      auto.checked = s.autoTurn;
      interval.value = String(s.autoSec);
      for (const a of AXES) {
        sliders[a.key].input.value = String(s.offsets[a.key]);
        sliders[a.key].out.textContent = fmt(s.offsets[a.key], a.unit);
        sliders[a.key].input.setAttribute('aria-valuetext', sliders[a.key].out.textContent ?? '');
      }
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
    },
    setNextTurn(text) {
      nextTurn.textContent = text;
    },
    setPoseFiles(files, selected) {
      const options = [el('option', { value: '', textContent: files.length ? 'Built-in pose' : 'Built-in pose (no poses in your folders)' })];
      for (const f of files) options.push(el('option', { value: f.path, textContent: f.name, title: f.path }));
      // A remembered file that is not (or no longer) listed still shows as the current choice.
      if (selected && !files.some((f) => f.path === selected)) {
        options.push(el('option', { value: selected, textContent: selected.split(/[\\/]/).pop() ?? selected, title: selected }));
      }
      folderPoses.replaceChildren(...options);
      folderPoses.value = selected ?? '';
    },
  };
}

function fmt(v: number, unit: string): string {
  return unit === 'm' ? `${v.toFixed(2)} m` : `${v.toFixed(0)}°`;
}

export const BEDROOM_CSS = `
.bedroom { position: relative; display: flex; width: 100%; height: 100%; min-height: 360px; background: #0b1020; color: #dfe3f0; font: 13px/1.4 system-ui, sans-serif; }
.bedroom-view { position: relative; flex: 1; min-width: 0; }
.bedroom-view canvas { display: block; width: 100%; height: 100%; outline: none; }
.bedroom-panel { width: 250px; padding: 10px 12px; overflow: auto; background: #141a2c; border-left: 1px solid #263050; box-sizing: border-box; }
.bedroom-panel fieldset { border: 1px solid #2c3658; border-radius: 6px; margin: 8px 0; padding: 6px 8px; }
.bedroom-row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
.bedroom-panel button { background: #26325a; color: #eef; border: 1px solid #3a4a80; border-radius: 5px; padding: 4px 10px; cursor: pointer; }
.bedroom-panel button:disabled { opacity: 0.45; cursor: default; }
.bedroom-panel button:focus-visible, .bedroom-panel input:focus-visible { outline: 2px solid #8fb0ff; outline-offset: 1px; }
.bedroom-slider { display: grid; grid-template-columns: 28px 1fr 48px; align-items: center; gap: 4px; }
.bedroom-panel input[type=number] { width: 64px; }
.bedroom-folder-poses { max-width: 220px; }
.bedroom-status { min-height: 2.8em; margin: 6px 0; color: #bcd; }
.bedroom-status[data-kind=error] { color: #ffb3a8; }
.bedroom-report h3 { font-size: 13px; margin: 8px 0 4px; }
.bedroom-report ul { margin: 0; padding-left: 16px; }
.bedroom-report .bad { color: #ffb3a8; }
.bedroom-report .good { color: #9fd8a8; }
.bedroom-next { color: #8a94b8; font-size: 12px; }
`;
