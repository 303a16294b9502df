/**
 * TEST-ONLY (see testHook.ts): drags without a mouse, and where to put the mouse for real ones. A
 * gizmo drag sets the normalized node's rotation (or the hips' position) between the mouseDown,
 * objectChange and mouseUp events the real TransformControls fires; a key move selects a box of keys
 * and commits through the dope sheet's path. The handles' and markers' page coordinates let e2e tests
 * drag with the mouse.
 */
import * as THREE from 'three';
import type { Studio } from '../app/studio';
import type { Viewport } from '../viewport/viewport';
import type { PoseEditor } from '../pose/poseEditor';
import type { IkHandles } from '../pose/ikHandles';
import type { IkEffector } from '../pose/applyIk';
import type { LookAtTarget } from '../viewport/lookAtTarget';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { vrmBone } from '../avatar/boneNames';
import { KeySelectionState } from '../timeline/dopeSheetSelection';
import { moveKeys } from '../../shared/edits/moveKeys';
import { withChannels, type Channel } from '../../shared/motion/types';
import type { PoseReaders } from './testHookPose';

export interface DragDeps {
  readonly viewport: Viewport;
  readonly poseEditor: PoseEditor;
  readonly ikHandles: IkHandles;
  readonly lookAtTarget?: LookAtTarget;
}

const fire = (controls: PoseEditor['rotate'], type: 'mouseDown' | 'mouseUp' | 'objectChange') =>
  (controls as unknown as THREE.EventDispatcher<Record<string, object>>).dispatchEvent({ type, mode: controls.mode } as never);

export function dragProbes(studio: Studio, { viewport, poseEditor, ikHandles, lookAtTarget }: DragDeps, read: PoseReaders) {
  /** A rotate-gizmo drag on `bone` that ends with its normalized local rotation at q (x, y, z, w). */
  const dragRotate = (bone: HumanBoneName, q: [number, number, number, number]) => {
    studio.setPlaying(false);
    studio.select(bone);
    const n = read.node(bone);
    fire(poseEditor.rotate, 'mouseDown');
    n.quaternion.set(q[0], q[1], q[2], q[3]);
    fire(poseEditor.rotate, 'objectChange');
    fire(poseEditor.rotate, 'mouseUp');
    return n.quaternion.toArray();
  };
  return {
    dragRotate,
    /** A move-gizmo drag of the hips by d (metres, in the normalized hips' parent space). */
    dragMoveHips: (d: [number, number, number]) => {
      studio.setPlaying(false);
      studio.select('hips');
      const n = read.node('hips');
      fire(poseEditor.move, 'mouseDown');
      n.position.add(new THREE.Vector3(d[0], d[1], d[2]));
      const after = n.position.toArray();
      fire(poseEditor.move, 'objectChange');
      fire(poseEditor.move, 'mouseUp');
      return after;
    },
    /** Page coordinates of an IK handle (e2e drags it with the mouse from there). */
    ikHandleScreen: (effector: IkEffector) => ikHandles.screenPosition(effector),
    /** The world target of the last IK drag. */
    ikLastTarget: () => ikHandles.inspect().lastTarget,
    /** Page coordinates of the gaze target (e2e drags it with the mouse from there). */
    lookAtTargetScreen: () => lookAtTarget?.screenPosition() ?? null,
    /** Page coordinates (CSS px) of a bone's marker, for real mouse clicks. */
    markerScreen: (bone: HumanBoneName) => {
      const p = new THREE.Vector3();
      studio.avatar!.vrm.humanoid.getRawBoneNode(vrmBone(bone))!.getWorldPosition(p);
      p.project(viewport.camera);
      const r = viewport.renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    pickAt: (x: number, y: number) => poseEditor.pickAt(x, y),
    gizmo: () => ({ ...poseEditor.inspect(), orbitEnabled: viewport.orbit.enabled }),
    /** Times one pose edit on `bone` from drag end to the preview showing the edited pose (ms). */
    timeEdit: (bone: HumanBoneName, q: [number, number, number, number]) => {
      const t0 = performance.now();
      dragRotate(bone, q);
      viewport.renderNow(0);
      return performance.now() - t0;
    },
    /**
     * Drag end to the next frames drawn by the browser with everything that follows an edit
     * (timeline curve and keys redrawn, panels updated): the latency a user sees (ms).
     */
    timeEditVisible: async (bone: HumanBoneName, q: [number, number, number, number]) => {
      const t0 = performance.now();
      dragRotate(bone, q);
      await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      await new Promise<void>((done) => setTimeout(done, 60));
      await new Promise<void>((done) => requestAnimationFrame(() => done()));
      return performance.now() - t0 - 60;
    },
    /**
     * Commits the motion with `bone`'s rotation channel emptied (no keys) through the studio's commit:
     * the core never makes one (its writer refuses it) and three.js refuses it as a track, so the preview
     * cannot show it. Returns the undo depth after (an edit the preview cannot show is not recorded).
     */
    commitEmptyTrack: (bone: HumanBoneName) => {
      const m = studio.motion;
      const empty = (c: Channel) => m.humanoid.nodeToBone.get(c.node) === bone && c.path === 'rotation';
      studio.commit(withChannels(m, m.channels.map((c) => (empty(c) ? { ...c, times: new Float32Array(0), values: new Float32Array(0) } : c))), 'Empty track');
      return studio.history.position;
    },
    /**
     * Selects the keys of the first `rows` channels between t0 and t1 (as a box over those rows of the
     * dope sheet does) and moves them by dt seconds through the dope sheet's commit path; returns the
     * number of keys moved and the edit's own time (ms).
     */
    moveKeysBox: (rows: number, t0: number, t1: number, dt: number) => {
      const start = performance.now();
      const sel = new KeySelectionState();
      let count = 0;
      for (const c of studio.motion.channels.slice(0, rows)) count += sel.selectTimeSpan(`${c.node}/${c.path}`, c.times, t0, t1);
      studio.commit(moveKeys(studio.motion, sel.toKeySelection(), dt), 'Move keys', () => `moved ${count} keys`);
      return { count, ms: performance.now() - start };
    },
  };
}
