/**
 * The bedroom scene of the studio: mountBedroom(root, ctx) builds its own renderer, room and avatar
 * instance inside `root` and returns { dispose }. The studio gives it the current avatar's bytes,
 * optional access to the user's files, and a place to keep its settings.
 */
import { PerspectiveCamera, Raycaster, Scene, Vector2, Vector3, WebGLRenderer, type AnimationClip } from 'three';
import { VRMUtils, type VRM } from '@pixiv/three-vrm';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { BedroomRig } from './bedroomRig';
import { buildControls, BEDROOM_CSS, type Controls } from './controls';
import { probeAvatarHeights, type HeightProbeResult } from './heightProbe';
import { loadVrm } from './loadVrm';
import { formatPoseReport } from './poseReport';
import { builtInClips, clipFromPoseFile } from './poseSources';
import { buildRoom, NIGHT_BACKGROUND } from './room';
import { DEFAULT_BEDROOM_SETTINGS, sanitizeBedroomSettings, ZERO_OFFSETS, type BedroomSettings, type LyingPose } from './settings';
import { SleepCycle } from './sleepCycle';
import { toBedFrame } from './placement';
import { testHookEnabled } from '../app/testHookEnabled';

export type { BedroomSettings, LyingPose, PlacementOffsets } from './settings';
export { listPoseFiles, type PoseFileEntry, type PoseLibrarySource } from './poseLibrary';
export { DEFAULT_BEDROOM_SETTINGS, sanitizeBedroomSettings } from './settings';

export interface BedroomContext {
  /** The current avatar as GLB bytes (VRM 0.x or 1.0); empty means "none yet": the mannequin is used. */
  getAvatarBytes(): Uint8Array;
  /** Reads a file the user opened or that sits in an opened folder (for the remembered sleep pose). */
  readUserFile?(name: string): Promise<Uint8Array>;
  /** The .vpd and one-frame .vrma files of the folders opened in the studio (see poseLibrary.ts). */
  listPoseFiles?(): Promise<{ path: string; name: string }[]>;
  /** Calls back when the opened folders change on disk; returns the unsubscribe. */
  onPoseFilesChanged?(cb: () => void): () => void;
  loadSettings?(): BedroomSettings | unknown;
  saveSettings?(s: BedroomSettings): void;
  /** The same as loadSettings/saveSettings, as a get/set store (either form is accepted). */
  settings?: { get(): unknown; set(value: unknown): void };
}

export interface BedroomHandle {
  dispose(): void;
}

/** What end-to-end tests read (window.__bedroom); nothing in the app depends on it. */
export interface BedroomTestHook {
  readonly ready: Promise<void>;
  state(): { e: number; lb: number; pose: LyingPose; sleeping: boolean; fullyAsleep: boolean; nextTurnIn: number | null; status: string };
  /** Main joints in the bed's frame: [along toward the head, height above the mattress top, across]. */
  jointsOnBed(): Record<string, [number, number, number]>;
  bed(): { mattressTop: number; width: number; length: number; floorY: number };
  probeHeights(thresholds: number[]): HeightProbeResult;
  /** Run the bedroom's clock k times faster (turn-overs without waiting minutes). */
  setTimeScale(k: number): void;
  /** The head bone's position on screen (client pixels) and whether a nod is playing. */
  head(): { x: number; y: number; nodding: boolean } | null;
}

declare global {
  interface Window {
    __bedroom?: BedroomTestHook;
  }
}

const BUILT_IN: Record<LyingPose, string> = { back: 'built-in back pose', side: 'built-in side pose' };

/** A path's last part: what the status and report call a pose file. */
function fileLabel(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export function mountBedroom(root: HTMLElement, ctx: BedroomContext): BedroomHandle {
  let settings: BedroomSettings;
  try {
    settings = sanitizeBedroomSettings(ctx.loadSettings ? ctx.loadSettings() : ctx.settings?.get());
  } catch {
    settings = DEFAULT_BEDROOM_SETTINGS;
  }
  const save = (next: BedroomSettings) => {
    settings = next;
    try {
      if (ctx.saveSettings) ctx.saveSettings(next);
      else ctx.settings?.set(next);
    } catch (e) {
      controls.setStatus(`Settings could not be saved: ${(e as Error).message}`, 'error');
    }
  };

  const container = document.createElement('div');
  container.className = 'bedroom';
  const style = document.createElement('style');
  style.textContent = BEDROOM_CSS;
  const view = document.createElement('div');
  view.className = 'bedroom-view';
  container.append(style, view);
  root.append(container);

  const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  renderer.domElement.setAttribute('aria-label', 'Bedroom view: click the avatar’s head to make it nod');
  renderer.domElement.tabIndex = 0;
  view.append(renderer.domElement);
  const scene = new Scene();
  scene.background = NIGHT_BACKGROUND;
  const camera = new PerspectiveCamera(40, 1, 0.05, 50);
  camera.position.set(1.45, 1.75, 2.65);
  camera.lookAt(-0.4, 0.5, -0.5);
  const room = buildRoom();
  scene.add(room.root);

  let vrm: VRM | null = null;
  let rig: BedroomRig | null = null;
  let builtIns: { back: AnimationClip; side: AnimationClip } | null = null;
  let timeScale = 1;
  let simTime = 0;
  let lastReal = performance.now() / 1000;
  // The cycle reads a clock that can be slowed or sped up by the test hook.
  function clock(): number {
    const now = performance.now() / 1000;
    simTime += (now - lastReal) * timeScale;
    lastReal = now;
    return simTime;
  }
  const cycle = new SleepCycle({ now: () => clock(), pose: settings.pose, autoTurn: settings.autoTurn, autoSec: settings.autoSec });

  const controls: Controls = buildControls({
    sleep: () => {
      cycle.sleep();
      controls.setSleeping(true);
      controls.setStatus('Lying down…');
    },
    wake: () => {
      cycle.wake();
      controls.setSleeping(false);
      controls.setStatus('Getting up.');
    },
    turnOver: () => {
      cycle.turnOver();
      const pose = cycle.tick().pose;
      save({ ...settings, pose });
      controls.showSettings(settings);
      showReport(pose);
    },
    choosePose: (pose) => {
      cycle.choosePose(pose);
      save({ ...settings, pose });
      showReport(pose);
    },
    setAutoTurn: (on) => {
      cycle.setAutoTurn(on);
      save({ ...settings, autoTurn: on });
    },
    setAutoSec: (sec) => {
      cycle.setAutoSec(sec);
      save({ ...settings, autoSec: sec });
      controls.showSettings(settings);
    },
    setOffsets: (offsets, final) => {
      rig?.setPlacementOffsets(offsets);
      if (final) save({ ...settings, offsets });
      else settings = { ...settings, offsets };
    },
    resetPlacement: () => {
      rig?.setPlacementOffsets(ZERO_OFFSETS);
      save({ ...settings, offsets: ZERO_OFFSETS });
      controls.showSettings(settings);
      controls.setStatus('Placement reset to the automatic result.');
    },
    loadPoseFile: (file) => {
      void file.arrayBuffer().then((buf) => usePoseFile(file.name, new Uint8Array(buf), true));
    },
    choosePoseFromFolders: (path) => {
      if (path) void readAndUsePoseFile(path, true, settings.pose);
      else useBuiltInPose();
    },
  });
  let errorShown = false;
  const setStatus = controls.setStatus.bind(controls);
  controls.setStatus = (text, kind = 'info') => {
    errorShown = kind === 'error';
    setStatus(text, kind);
  };
  container.append(controls.element);
  controls.showSettings(settings);
  controls.setSleeping(false);
  controls.setStatus('Loading the avatar…');

  function showReport(pose: LyingPose): void {
    const slot = rig?.pose(pose);
    if (!slot) return;
    controls.setReport(formatPoseReport(slot.report), slot.report.warnings, `${pose} (${slot.label})`);
  }

  /**
   * Install a user's sleep pose (`name` is a file name or, from the folders, a full path) into the
   * slot of the chosen pose; on failure lie on the back.
   */
  async function usePoseFile(name: string, bytes: Uint8Array | null, remember: boolean, readError?: string, slot: LyingPose = settings.pose): Promise<void> {
    if (!rig || !vrm || !builtIns) return;
    const label = fileLabel(name);
    try {
      if (!bytes) throw new Error(readError ?? `${label} is missing`);
      const clip = await clipFromPoseFile(name, bytes, vrm);
      if (disposed) return;
      rig.setPose(slot, clip, label);
      // Remember the file only where it can be read again next time (a file picked in a browser
      // is known by name only); otherwise every visit would start with a "missing file" message.
      if (remember) {
        const again = await canReadAgain(name);
        save({ ...settings, poseFile: again ? name : undefined, poseFileSlot: again ? slot : undefined });
      }
      controls.setStatus(`${label} is now the ${slot} pose.`);
      showReport(slot);
    } catch (e) {
      if (disposed) return;
      rig.setPose(slot, builtIns[slot], BUILT_IN[slot]);
      cycle.choosePose('back');
      save({ ...settings, pose: 'back', poseFile: undefined, poseFileSlot: undefined });
      controls.showSettings(settings);
      controls.setStatus(`${(e as Error).message}. Lying on the back instead.`, 'error');
      showReport('back');
    }
    controls.setPoseFiles(poseFiles, settings.poseFile);
  }

  /** A remembered or listed pose file, read through the studio (paths inside opened folders). */
  async function readAndUsePoseFile(path: string, remember: boolean, slot: LyingPose): Promise<void> {
    const label = fileLabel(path);
    if (!ctx.readUserFile) return usePoseFile(path, null, remember, `${label} cannot be read here`, slot);
    let bytes: Uint8Array | null = null;
    let err: string | undefined;
    try {
      bytes = await ctx.readUserFile(path);
    } catch (e) {
      err = `${label} could not be read: ${(e as Error).message}`;
    }
    if (disposed) return;
    await usePoseFile(path, bytes, remember, err, slot);
  }

  /** "Built-in pose" in the folders list: the remembered file's slot gets its built-in pose back. */
  function useBuiltInPose(): void {
    if (!rig || !builtIns) return;
    const slot = settings.poseFileSlot ?? settings.pose;
    rig.setPose(slot, builtIns[slot], BUILT_IN[slot]);
    save({ ...settings, poseFile: undefined, poseFileSlot: undefined });
    controls.setStatus(`The built-in ${slot} pose is back.`);
    showReport(slot);
    controls.setPoseFiles(poseFiles, undefined);
  }

  let poseFiles: { path: string; name: string }[] = [];
  let listing = 0;
  async function refreshPoseFiles(): Promise<void> {
    if (!ctx.listPoseFiles) return;
    const mine = ++listing;
    try {
      const files = await ctx.listPoseFiles();
      if (disposed || mine !== listing) return;
      poseFiles = files;
    } catch {
      // No library (a static server) or a folder that vanished: keep the last list.
      if (disposed || mine !== listing) return;
    }
    controls.setPoseFiles(poseFiles, settings.poseFile);
  }
  let unsubscribeLibrary: (() => void) | null = null;
  let libraryTimer: ReturnType<typeof setTimeout> | undefined;

  async function canReadAgain(name: string): Promise<boolean> {
    if (!ctx.readUserFile) return false;
    try {
      return (await ctx.readUserFile(name)).length > 0;
    } catch {
      return false;
    }
  }

  let disposed = false;
  const ready = (async () => {
    try {
      const bytes = ctx.getAvatarBytes();
      vrm = await loadVrm(bytes.length ? bytes : makeMannequinVrm());
    } catch (e) {
      controls.setStatus(`The avatar could not be loaded: ${(e as Error).message}`, 'error');
      return;
    }
    if (disposed) {
      VRMUtils.deepDispose(vrm.scene);
      return;
    }
    const clips = await builtInClips(vrm);
    if (disposed) return;
    builtIns = clips;
    rig = new BedroomRig(vrm, room.root, room.bed, room.standing, clips.idle);
    rig.setPose('back', clips.back, BUILT_IN.back);
    rig.setPose('side', clips.side, BUILT_IN.side);
    rig.setPlacementOffsets(settings.offsets);
    controls.setStatus('Awake. Press Sleep to lie down.');
    showReport(settings.pose);
    controls.setPoseFiles(poseFiles, settings.poseFile);
    if (settings.poseFile) {
      const slot = settings.poseFileSlot ?? settings.pose;
      await readAndUsePoseFile(settings.poseFile, false, slot);
      if (disposed) return;
      if (!errorShown && settings.poseFile) controls.setStatus(`Awake, with ${fileLabel(settings.poseFile)} as the ${slot} pose. Press Sleep to lie down.`);
    }
    if (disposed) return;
    // The list follows the opened folders: read now, and again (after a burst settles) on each change.
    try {
      unsubscribeLibrary =
        ctx.onPoseFilesChanged?.(() => {
          clearTimeout(libraryTimer);
          libraryTimer = setTimeout(() => void refreshPoseFiles(), 150);
        }) ?? null;
    } catch {
      unsubscribeLibrary = null;
    }
    await refreshPoseFiles();
  })();

  // Click on the head: a nod.
  const raycaster = new Raycaster();
  const pointer = new Vector2();
  let down: { x: number; y: number } | null = null;
  const onDown = (ev: PointerEvent) => {
    down = { x: ev.clientX, y: ev.clientY };
  };
  const onUp = (ev: PointerEvent) => {
    if (!down || !vrm || !rig) return;
    const moved = Math.hypot(ev.clientX - down.x, ev.clientY - down.y);
    down = null;
    if (moved > 6) return;
    const r = renderer.domElement.getBoundingClientRect();
    pointer.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hit = raycaster.intersectObject(vrm.scene, true)[0];
    const head = vrm.humanoid.getRawBoneNode('head');
    if (!hit || !head) return;
    const headPos = head.getWorldPosition(new Vector3());
    if (hit.point.distanceTo(headPos) < 0.3) rig.nod();
  };
  renderer.domElement.addEventListener('pointerdown', onDown);
  renderer.domElement.addEventListener('pointerup', onUp);

  const resize = () => {
    const w = Math.max(1, view.clientWidth);
    const h = Math.max(1, view.clientHeight);
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(view);
  resize();

  let lastFrame = clock();
  let shown = '';
  let raf = 0;
  const frame = () => {
    raf = requestAnimationFrame(frame);
    const now = clock();
    // Long gaps (a hidden tab) are not replayed by the mixer; the cycle itself keeps exact time.
    const dt = Math.min(0.1 * Math.max(1, timeScale), Math.max(0, now - lastFrame));
    lastFrame = now;
    const s = cycle.tick();
    if (rig) {
      rig.update(dt, { e: s.e, lb: s.lb });
      const key = `${s.fullyAsleep}:${s.pose}`;
      if (key !== shown) {
        if (s.fullyAsleep && !errorShown) controls.setStatus(`Asleep on the ${s.pose}.`);
        if (s.pose !== shown.split(':')[1]) showReport(s.pose);
        shown = key;
      }
      controls.setNextTurn(s.nextTurnIn === null ? '' : `next turn in ${Math.ceil(s.nextTurnIn)} s`);
    }
    renderer.render(scene, camera);
  };
  raf = requestAnimationFrame(frame);

  // Test instrumentation only when the app or host runs with VRMA_STUDIO_TEST_HOOK=1 (renderer/app/testHookEnabled.ts).
  void testHookEnabled().then((on) => {
    if (on && !disposed) window.__bedroom = bedroomTestHook;
  });
  const bedroomTestHook: BedroomTestHook = {
    ready,
    state: () => {
      const s = cycle.tick();
      return { e: s.e, lb: s.lb, pose: s.pose, sleeping: s.sleeping, fullyAsleep: s.fullyAsleep, nextTurnIn: s.nextTurnIn, status: controls.element.querySelector('[role=status]')?.textContent ?? '' };
    },
    jointsOnBed: () => {
      const out: Record<string, [number, number, number]> = {};
      if (!rig) return out;
      for (const [k, p] of Object.entries(rig.jointsInParentFrame())) out[k] = [...toBedFrame(p!, room.bed)] as [number, number, number];
      return out;
    },
    bed: () => ({ mattressTop: room.bed.mattressTop, width: room.bed.width, length: room.bed.length, floorY: room.floorY }),
    probeHeights: (thresholds) => {
      if (!vrm) throw new Error('no avatar yet');
      return probeAvatarHeights(renderer, scene, camera, room.root, vrm.scene, thresholds);
    },
    setTimeScale: (k) => {
      clock();
      timeScale = k;
    },
    head: () => {
      const bone = vrm?.humanoid.getRawBoneNode('head');
      if (!bone || !rig) return null;
      const p = bone.getWorldPosition(new Vector3()).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height, nodding: rig.nodding };
    },
  };

  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      cancelAnimationFrame(raf);
      clearTimeout(libraryTimer);
      unsubscribeLibrary?.();
      observer.disconnect();
      renderer.domElement.removeEventListener('pointerdown', onDown);
      renderer.domElement.removeEventListener('pointerup', onUp);
      rig?.dispose();
      if (vrm) VRMUtils.deepDispose(vrm.scene);
      room.dispose();
      renderer.dispose();
      // Switching scenes back and forth must not pile up WebGL contexts (browsers cap them).
      renderer.forceContextLoss();
      container.remove();
      if (window.__bedroom?.ready === ready) delete window.__bedroom;
    },
  };
}
