/**
 * TEST-ONLY hook: window.__studio lets the browser tests and the bench read numbers the UI does not
 * print (motion bytes, normalized bone rotations, timeline state) and simulate gizmo drags by
 * setting the normalized node's rotation and firing the TransformControls events the real gizmo
 * fires. Nothing in the studio reads it, and the product never loads it: startStudio imports this
 * module (its own chunk) only when the app or host runs with VRMA_STUDIO_TEST_HOOK=1
 * (renderer/app/testHookEnabled.ts). The counters it reports (preview rebuilds, timeline layer
 * draws) are kept here, not in the studio's classes.
 */
import * as THREE from 'three';
import type { Studio } from '../app/studio';
import type { PoseEditor } from '../pose/poseEditor';
import type { IkHandles } from '../pose/ikHandles';
import type { LookAtTarget } from '../viewport/lookAtTarget';
import { loadVrmAnimation } from '../preview/referenceClip';
import type { ContactStrip } from '../timeline/contactStrip';
import type { IkEffector } from '../pose/applyIk';
import type { TimelineView } from '../timeline/timelineView';
import type { OnionSkin } from '../viewport/onionSkin';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { writeVrma } from '../app/core';
import { referenceClip } from '../preview/referenceClip';
import { vrmBone } from '../avatar/boneNames';
import { KeySelectionState } from '../timeline/dopeSheetSelection';
import { moveKeys } from '../../shared/edits/moveKeys';
import { workerCounts } from '../app/motionFiles';

export interface TestHookDeps {
  readonly poseEditor: PoseEditor;
  readonly ikHandles: IkHandles;
  readonly lookAtTarget?: LookAtTarget;
  readonly contactStrip?: ContactStrip;
  readonly timeline: TimelineView;
  readonly startedAt: number;
  readonly onionSkin?: OnionSkin;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function readPixels(canvas: HTMLCanvasElement): Uint8ClampedArray {
  const c = document.createElement('canvas');
  c.width = canvas.width;
  c.height = canvas.height;
  const ctx = c.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(canvas, 0, 0);
  return ctx.getImageData(0, 0, c.width, c.height).data;
}

export function installTestHook(studio: Studio, deps: TestHookDeps): void {
  const { poseEditor, ikHandles, timeline } = deps;
  const node = (bone: HumanBoneName) => {
    const n = studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone));
    if (!n) throw new Error(`The avatar has no ${bone}`);
    return n;
  };
  // Bones the avatar lacks are left out of the answers.
  const has = (b: HumanBoneName) => !!studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(b));
  const readRotations = (bones: HumanBoneName[]) => Object.fromEntries(bones.filter(has).map((b) => [b, node(b).quaternion.toArray()]));
  const readPositions = (bones: HumanBoneName[]) => Object.fromEntries(bones.filter(has).map((b) => [b, node(b).position.toArray()]));
  // World positions of the normalized nodes (IK targets are world points).
  const readWorld = (bones: HumanBoneName[]) => {
    studio.avatar?.vrm.scene.updateMatrixWorld(true);
    return Object.fromEntries(bones.filter(has).map((b) => [b, node(b).getWorldPosition(new THREE.Vector3()).toArray()]));
  };
  const avatarPixels = () => {
    const avatar = studio.avatar;
    if (!avatar) return { share: 0, mean: [0, 0, 0] };
    const vp = studio.viewport;
    const helpers = [poseEditor.rotate.getHelper(), poseEditor.move.getHelper(), poseEditor.markers?.group].filter(Boolean) as THREE.Object3D[];
    const was = helpers.map((o) => o.visible);
    helpers.forEach((o) => (o.visible = false));
    vp.renderer.render(vp.scene, vp.camera);
    const withAvatar = readPixels(vp.renderer.domElement);
    avatar.vrm.scene.visible = false;
    vp.renderer.render(vp.scene, vp.camera);
    const without = readPixels(vp.renderer.domElement);
    avatar.vrm.scene.visible = true;
    helpers.forEach((o, i) => (o.visible = was[i]));
    vp.renderer.render(vp.scene, vp.camera);
    let differ = 0;
    const sum = [0, 0, 0];
    for (let i = 0; i < withAvatar.length; i += 4) {
      const d = Math.abs(withAvatar[i] - without[i]) + Math.abs(withAvatar[i + 1] - without[i + 1]) + Math.abs(withAvatar[i + 2] - without[i + 2]);
      if (d > 24) {
        differ++;
        for (let c = 0; c < 3; c++) sum[c] += withAvatar[i + c];
      }
    }
    return { share: differ / (withAvatar.length / 4), mean: sum.map((v) => (differ ? v / differ : 0)) };
  };
  // Preview rebuilds: every motion change and every new avatar rebuilds the clip (Studio.rebuildPreview).
  let previewVersion = 0;
  studio.events.on('motion', () => previewVersion++);
  studio.events.on('avatar', () => previewVersion++);
  // Timeline layer draws, counted by wrapping the view's two draw methods on this instance.
  const draws = { static: 0, overlay: 0 };
  const layers = timeline as unknown as { drawStatic(): void; drawOverlay(...a: unknown[]): void };
  const drawStatic = layers.drawStatic.bind(timeline);
  const drawOverlay = layers.drawOverlay.bind(timeline);
  layers.drawStatic = () => {
    draws.static++;
    drawStatic();
  };
  layers.drawOverlay = (...a: unknown[]) => {
    draws.overlay++;
    drawOverlay(...a);
  };
  // The last bytes the document wrote or exported (Save, Save As, Export, downloads).
  let lastWritten: Uint8Array | null = null;
  studio.doc.events.on('written', (w) => (lastWritten = w.bytes));
  let firstAvatarFrameAt: number | null = null;
  studio.viewport.onFrame(() => {
    if (firstAvatarFrameAt === null && studio.avatar) {
      // The frame being drawn now is the first one with the avatar in it.
      queueMicrotask(() => {
        firstAvatarFrameAt ??= performance.now();
      });
    }
  });

  /**
   * Plays .vrma bytes the way any player does (GLTFLoader + VRMAnimationLoaderPlugin +
   * createVRMAnimationClip) on the current avatar at time t, reads what it shows, and gives the
   * preview back (paused at t).
   */
  const playedAt = async <T>(bytes: Uint8Array, t: number, read: () => T): Promise<T> => {
    const avatar = studio.avatar!;
    studio.setPlaying(false);
    const clip = await referenceClip(bytes, avatar.vrm);
    const mixer = new THREE.AnimationMixer(avatar.vrm.scene);
    const action = mixer.clipAction(clip);
    // Reset before play: the new bindings take the rest pose as their starting state.
    studio.preview!.resetPose();
    action.play();
    action.paused = true;
    action.time = t;
    mixer.update(0);
    const result = read();
    action.stop();
    mixer.uncacheClip(clip);
    studio.preview!.resetPose();
    studio.seek(t);
    return result;
  };

  const fire = (controls: PoseEditor['rotate'], type: 'mouseDown' | 'mouseUp' | 'objectChange') =>
    (controls as unknown as THREE.EventDispatcher<Record<string, object>>).dispatchEvent({ type, mode: controls.mode } as never);

  const hook = {
    startedAt: deps.startedAt,
    firstAvatarFrameAt: () => firstAvatarFrameAt,
    framesDrawn: () => studio.viewport.framesDrawn,
    state: () => ({
      time: studio.clock.time,
      duration: studio.duration,
      playing: studio.clock.playing,
      loop: studio.clock.loop,
      speed: studio.clock.speed,
      fps: studio.fps,
      range: studio.range,
      selectedBone: studio.selectedBone,
      falloff: studio.falloff,
      dirty: studio.dirty,
      canUndo: studio.history.canUndo,
      canRedo: studio.history.canRedo,
      historyLength: studio.history.length,
      undoDepth: studio.history.position,
      motionName: studio.motionName,
      channels: studio.motion.channels.length,
      avatarName: studio.avatar?.name ?? null,
      metaVersion: studio.avatar?.metaVersion ?? null,
      previewVersion,
      previewIsCurrent: studio.preview?.motion === studio.motion,
      timelineView: { start: timeline.view.start, end: timeline.view.end, width: timeline.view.width },
      timelineDraws: { ...draws },
      messages: studio.messages.log.map((m) => ({ kind: m.kind, text: m.text })),
      document: {
        name: studio.doc.name,
        fileLabel: studio.doc.fileLabel,
        filePath: studio.doc.filePath ?? null,
        sourcePath: studio.doc.sourcePath ?? null,
        needsSave: studio.doc.needsSave,
        reports: [...studio.doc.reports],
        history: studio.history.entries.map((e) => e.label),
      },
      toasts: [...studio.messages.element.querySelectorAll(':scope > .message')].map((m) => ({ kind: m.classList.contains('error') ? 'error' : m.classList.contains('success') ? 'success' : 'notice', text: m.querySelector('span')?.textContent ?? '' })),
    }),
    /** Page coordinates of an IK handle (e2e drags it with the mouse from there). */
    ikHandleScreen: (effector: IkEffector) => ikHandles.screenPosition(effector),
    /** The expression weights and VRMLookAt yaw/pitch the avatar shows now (the live preview of a drag). */
    avatarFace: () => {
      const avatar = studio.avatar;
      const manager = avatar?.vrm.expressionManager;
      return {
        weights: Object.fromEntries((manager?.expressions ?? []).map((e) => [e.expressionName, manager!.getValue(e.expressionName) ?? 0])),
        gaze: avatar?.vrm.lookAt ? { yaw: avatar.vrm.lookAt.yaw, pitch: avatar.vrm.lookAt.pitch } : null,
      };
    },
    /** Page coordinates of the gaze target (e2e drags it with the mouse from there). */
    lookAtTargetScreen: () => deps.lookAtTarget?.screenPosition() ?? null,
    /**
     * Reads .vrma bytes (base64) the way any player does, GLTFLoader + VRMAnimationLoaderPlugin +
     * createVRMAnimationClip on the current avatar, plays the clip at time t on it and answers the
     * expression weights and the VRMLookAt yaw/pitch (degrees) it shows. The preview is restored after.
     */
    playedFace: async (base64: string, t: number) => {
      const avatar = studio.avatar!;
      const vrmAnimation = await loadVrmAnimation(fromBase64(base64));
      const tracks = { expressions: [...vrmAnimation.expressionTracks.preset.keys(), ...vrmAnimation.expressionTracks.custom.keys()], lookAt: !!vrmAnimation.lookAtTrack };
      return playedAt(fromBase64(base64), t, () => {
        const manager = avatar.vrm.expressionManager;
        const weights = Object.fromEntries((manager?.expressions ?? []).map((e) => [e.expressionName, manager!.getValue(e.expressionName) ?? 0]));
        const gaze = avatar.vrm.lookAt ? { yaw: avatar.vrm.lookAt.yaw, pitch: avatar.vrm.lookAt.pitch } : null;
        return { weights, gaze, tracks };
      });
    },
    /** The world target of the last IK drag, and where the preview shows the effector's bone now. */
    ikLastTarget: () => ikHandles.lastTarget,
    /** The foot contacts the timeline's strip shows, and the strip's drawn size. */
    footContacts: () => ({
      contacts: (deps.contactStrip?.contacts() ?? []).map((c) => ({ foot: c.foot, start: c.start, end: c.end })),
      width: deps.contactStrip?.element.width ?? 0,
    }),
    boneWorldPosition: (bone: HumanBoneName) => {
      const n = studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone));
      if (!n) return null;
      studio.avatar!.vrm.scene.updateMatrixWorld(true);
      return n.getWorldPosition(new THREE.Vector3()).toArray();
    },
    motionBytes: () => toBase64(writeVrma(studio.motion)),
    previewMotionBytes: () => toBase64(writeVrma(studio.preview?.motion ?? studio.motion)),
    lastExportBytes: () => (lastWritten ? toBase64(lastWritten) : null),
    openBase64: (name: string, data: string) => studio.openFile(name, fromBase64(data)),
    /** Runs a registered command by id, as a desktop menu pick does. */
    runCommand: (id: string) => studio.commands.run(id),
    /** Every registered command with its shortcuts (the shortcuts overlay is compared with it). */
    commands: () => studio.commands.all().map((c) => ({ id: c.id, shortcuts: [...(c.shortcuts ?? [])] })),
    seek: (t: number) => {
      studio.setPlaying(false);
      studio.seek(t);
    },
    setPlaying: (p: boolean) => studio.setPlaying(p),
    setRange: (start: number, end: number) => studio.setRange({ start, end }),
    clearRange: () => studio.setRange(null),
    select: (bone: HumanBoneName | null) => studio.select(bone),
    setFalloff: (s: number) => studio.setFalloff(s),
    /** Normalized local rotations (x, y, z, w) of the given bones as currently posed. */
    normalizedRotations: (bones: HumanBoneName[]) => readRotations(bones),
    normalizedPositions: (bones: HumanBoneName[]) => readPositions(bones),
    /** Poses at time t through the live preview (fast clip path). */
    previewPose: (bones: HumanBoneName[], t: number) => {
      studio.setPlaying(false);
      studio.seek(t);
      return { rotations: readRotations(bones), positions: readPositions(bones), world: readWorld(bones) };
    },
    /**
     * Poses at time t through the reference path: writeVrma of the previewed Motion read back by
     * GLTFLoader + VRMAnimationLoaderPlugin + createVRMAnimationClip, as any reader of the file would.
     */
    referencePose: async (bones: HumanBoneName[], t: number) => {
      return playedAt(writeVrma(studio.preview!.motion!), t, () => ({ rotations: readRotations(bones), positions: readPositions(bones), world: readWorld(bones) }));
    },
    /** A rotate-gizmo drag on `bone` that ends with its normalized local rotation at q (x, y, z, w). */
    dragRotate: (bone: HumanBoneName, q: [number, number, number, number]) => {
      studio.setPlaying(false);
      studio.select(bone);
      const n = node(bone);
      fire(poseEditor.rotate, 'mouseDown');
      n.quaternion.set(q[0], q[1], q[2], q[3]);
      fire(poseEditor.rotate, 'objectChange');
      fire(poseEditor.rotate, 'mouseUp');
      return n.quaternion.toArray();
    },
    /** A move-gizmo drag of the hips by d (metres, in the normalized hips' parent space). */
    dragMoveHips: (d: [number, number, number]) => {
      studio.setPlaying(false);
      studio.select('hips');
      const n = node('hips');
      fire(poseEditor.move, 'mouseDown');
      n.position.add(new THREE.Vector3(d[0], d[1], d[2]));
      const after = n.position.toArray();
      fire(poseEditor.move, 'objectChange');
      fire(poseEditor.move, 'mouseUp');
      return after;
    },
    /** Page coordinates (CSS px) of a bone's marker, for real mouse clicks. */
    markerScreen: (bone: HumanBoneName) => {
      const p = new THREE.Vector3();
      studio.avatar!.vrm.humanoid.getRawBoneNode(vrmBone(bone))!.getWorldPosition(p);
      p.project(studio.viewport.camera);
      const r = studio.viewport.renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    pickAt: (x: number, y: number) => poseEditor.pickAt(x, y),
    gizmo: () => ({
      rotate: poseEditor.rotate.object?.name ?? null,
      move: poseEditor.move.object?.name ?? null,
      axis: poseEditor.rotate.axis,
      dragging: poseEditor.isDragging,
      orbitEnabled: studio.viewport.orbit.enabled,
    }),
    /** Share of the viewport's pixels the avatar covers: rendered with and without it, markers and gizmos hidden. */
    silhouetteShare: () => avatarPixels().share,
    /** The avatar's pixels (as silhouetteShare) and their mean colour (0..255), e.g. to see textures drawn. */
    avatarPixels: () => avatarPixels(),
    /**
     * The avatar's geometry as loaded (bind pose, independent of the motion): per mesh in scene
     * order, its vertex and index counts and the geometry's own bounding box.
     */
    avatarGeometry: () => {
      const meshes: { name: string; vertices: number; indices: number; min: number[]; max: number[] }[] = [];
      studio.avatar?.vrm.scene.traverse((o) => {
        const m = o as THREE.Mesh;
        if (!m.isMesh) return;
        const g = m.geometry;
        g.computeBoundingBox();
        meshes.push({ name: m.name, vertices: g.getAttribute('position').count, indices: g.index?.count ?? 0, min: g.boundingBox!.min.toArray(), max: g.boundingBox!.max.toArray() });
      });
      return meshes;
    },
    /** Milliseconds per frame drawn now, each synchronized with the GPU by a 1-pixel read (the bench's frame cost). */
    frameTimes: (n: number) => {
      const gl = studio.viewport.renderer.getContext();
      const px = new Uint8Array(4);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        studio.viewport.renderNow(0);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
        out.push(performance.now() - t0);
      }
      return out;
    },
    /** The onion skin's setting and the ghosts (side, time) the last frame drew. */
    onionSkin: () => ({ enabled: deps.onionSkin?.enabled ?? false, seconds: deps.onionSkin?.seconds ?? 0, lastDrawn: deps.onionSkin?.lastDrawn ?? [], framesDrawn: studio.viewport.framesDrawn }),
    setOnionSkin: (patch: { enabled?: boolean; seconds?: number }) => deps.onionSkin?.set(patch),
    /** Draws a frame now and returns each ghost's pose (normalized rotations and positions) as the onion skin posed it. */
    onionGhostPoses: (bones: HumanBoneName[]) => {
      const onion = deps.onionSkin;
      if (!onion) return [];
      const out: { side: number; time: number; rotations: Record<string, number[]>; positions: Record<string, number[]> }[] = [];
      onion.onGhostPosed = (side, time) => out.push({ side, time, rotations: readRotations(bones), positions: readPositions(bones) });
      try {
        studio.viewport.renderNow(0);
      } finally {
        onion.onGhostPosed = null;
      }
      return out;
    },
    /**
     * Pixels the ghosts add to a frame drawn now: the frame compared with the same frame drawn without
     * them, each changed pixel (summed |RGB| difference > 30) counted as past (bluer) or future (redder).
     */
    onionPixels: () => {
      const onion = deps.onionSkin;
      studio.viewport.renderNow(0);
      const withGhosts = readPixels(studio.viewport.renderer.domElement);
      if (onion) onion.hold = true;
      try {
        studio.viewport.renderNow(0);
      } finally {
        if (onion) onion.hold = false;
      }
      const without = readPixels(studio.viewport.renderer.domElement);
      let past = 0;
      let future = 0;
      for (let i = 0; i < withGhosts.length; i += 4) {
        const dr = withGhosts[i] - without[i];
        const dg = withGhosts[i + 1] - without[i + 1];
        const db = withGhosts[i + 2] - without[i + 2];
        if (Math.abs(dr) + Math.abs(dg) + Math.abs(db) <= 30) continue;
        if (db > dr) past++;
        else future++;
      }
      studio.viewport.renderNow(0);
      return { past, future, total: withGhosts.length / 4 };
    },
    /** Share of non-background pixels in a frame drawn now, exactly as the render loop draws it (markers included). */
    viewportPixelStats: () => {
      studio.viewport.renderNow(0);
      const px = readPixels(studio.viewport.renderer.domElement);
      let nonBackground = 0;
      for (let i = 0; i < px.length; i += 4) {
        // Background 0x1d2026 and the dark grid lines are below ~0x50 in every channel.
        if (px[i] > 0x60 || px[i + 1] > 0x60 || px[i + 2] > 0x60) nonBackground++;
      }
      return { share: nonBackground / (px.length / 4), width: studio.viewport.renderer.domElement.width, height: studio.viewport.renderer.domElement.height };
    },
    /** Pixels of the timeline's static layer in the curve colour. */
    timelineCurvePixels: () => {
      timeline.drawIfNeeded();
      const px = readPixels(timeline.staticCanvas);
      let curve = 0;
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - 0x5f) < 30 && Math.abs(px[i + 1] - 0xb3) < 30 && Math.abs(px[i + 2] - 0xa1) < 30) curve++;
      return { curve, total: px.length / 4 };
    },
    /** Painted width (CSS px) of the interactive layer along one row below the ruler: falloff band and playhead. */
    timelineOverlayRow: () => {
      timeline.drawIfNeeded();
      const c = timeline.overlayCanvas;
      const ctx = c.getContext('2d')!;
      const y = Math.floor(c.height * 0.6);
      const row = ctx.getImageData(0, y, c.width, 1).data;
      let painted = 0;
      for (let i = 3; i < row.length; i += 4) if (row[i] > 0) painted++;
      return painted / (c.width / timeline.view.width);
    },
    /** Times one pose edit on `bone` from drag end to the preview showing the edited pose (ms). */
    timeEdit: (bone: HumanBoneName, q: [number, number, number, number]) => {
      const t0 = performance.now();
      hook.dragRotate(bone, q);
      studio.viewport.renderNow(0);
      return performance.now() - t0;
    },
    /**
     * Drag end to the next frames drawn by the browser with everything that follows an edit
     * (timeline curve and keys redrawn, panels updated): the latency a user sees (ms).
     */
    timeEditVisible: async (bone: HumanBoneName, q: [number, number, number, number]) => {
      const t0 = performance.now();
      hook.dragRotate(bone, q);
      await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      await new Promise<void>((done) => setTimeout(done, 60));
      await new Promise<void>((done) => requestAnimationFrame(() => done()));
      return performance.now() - t0 - 60;
    },
    /**
     * Selects the keys of the first `rows` channels between t0 and t1 (as a box over those rows of the
     * dope sheet does) and moves them by dt seconds through the dope sheet's commit path; returns the
     * number of keys moved and the edit's own time (ms).
     */
    /** Reads and writes the motion file worker has done (renderer/app/motionFiles.ts). */
    fileWorkerCounts: () => ({ ...workerCounts }),
    moveKeysBox: (rows: number, t0: number, t1: number, dt: number) => {
      const start = performance.now();
      const sel = new KeySelectionState();
      let count = 0;
      for (const c of studio.motion.channels.slice(0, rows)) count += sel.selectTimeSpan(`${c.node}/${c.path}`, c.times, t0, t1);
      studio.commit(moveKeys(studio.motion, sel.toKeySelection(), dt), 'Move keys', () => `moved ${count} keys`);
      return { count, ms: performance.now() - start };
    },
  };
  (window as unknown as { __studio: typeof hook }).__studio = hook;
}
