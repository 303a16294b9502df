/**
 * What end-to-end tests and the bench read (window.__bedroom); nothing in the app depends on it.
 */
import { Quaternion, Vector3 } from 'three';
import type { LyingPose } from '../../shared/contract/bedroomSettings';
import { toBedFrame } from './placement';
import { probeAvatarHeights, type HeightProbeResult } from './heightProbe';
import type { BedroomController } from './controller';
import type { BedroomView } from './scene';
import type { Side, SleepPhase } from './sleepCycle';
import type { ViewName } from './cameraRig';
import { immersiveVrAvailable, type BedroomXr } from './xr';
import { contactFigures, rolled } from './contactFigures';
import { BODY_PARTS } from './bodySurface';
import type { VrButton } from './vrPanel';

export interface BedroomTestHook {
  readonly ready: Promise<void>;
  state(): { e: number; lb: number; side: Side; pose: LyingPose; sleeping: boolean; fullyAsleep: boolean; phase: SleepPhase; nextTurnIn: number | null; status: string };
  /** Main joints in the bed's frame: [along toward the head, height above the mattress top, across]. */
  jointsOnBed(): Record<string, [number, number, number]>;
  /**
   * The skin against the bed as drawn, every vertex (bodyRest.ts): the lowest point's height above what
   * is under it, the float of head, back/side and hips, the deepest part inside and the hair's (metres).
   */
  skin(): {
    lowest: number;
    head: number | null;
    back: number | null;
    hips: number | null;
    inside: number;
    insidePart: string;
    hair: number;
    parts: Record<string, { gap: number; inside: number; surface: string }>;
  };
  bed(): { mattressTop: number; width: number; length: number; floorY: number; pillow: [number, number, number]; pillowLength: number; pillowWidth: number };
  probeHeights(thresholds: number[]): HeightProbeResult;
  /** Run the bedroom's clock k times faster (turn-overs without waiting minutes). */
  setTimeScale(k: number): void;
  /** The head bone's position on screen (client pixels) and whether a nod is playing. */
  head(): { x: number; y: number; nodding: boolean } | null;
  face(): { blink: number; applied: number; smile: number; canCloseEyes: boolean };
  /** Hold the blink weight (null: the face's own) and aim the camera at the face, 40 cm away. */
  faceCloseUp(blink: number | null): void;
  camera(): { position: [number, number, number]; target: [number, number, number] };
  setView(name: ViewName): void;
  sound(): { level: number; running: boolean; muted: boolean; volume: number };
  draws(): number;
  /** Show or hide the avatar (a screenshot test compares the same frame with and without it). */
  setAvatarVisible(on: boolean): void;
  /** The sleep progresses of the last drawn frame (state() is the cycle's present, maybe not drawn yet). */
  drawn(): { e: number; lb: number };
  /** VR: whether a session shows, the buttons pressed so far, a button's centre in world space, the head in world space. */
  xr(): { presenting: boolean; presses: VrButton[]; head: [number, number, number] | null; roomRoot: [number, number, number, number] };
  xrButton(name: VrButton): [number, number, number];
  /** Drawn pixels that are not the night background, counted on the next headset frame. */
  xrPixels(): Promise<{ lit: number; total: number }>;
  /** Check an offer of immersive VR again and show or hide Enter VR (after a runtime was installed). */
  recheckVr(): Promise<boolean>;
}

declare global {
  interface Window {
    __bedroom?: BedroomTestHook;
  }
}

export function installBedroomTestHook(c: BedroomController, view: BedroomView, xr: BedroomXr): () => void {
  const room = view.room;
  const hook: BedroomTestHook = {
    ready: c.ready,
    state: () => {
      const s = c.cycle.tick();
      return {
        e: s.e,
        lb: s.lb,
        side: s.side,
        pose: s.pose,
        sleeping: s.sleeping,
        fullyAsleep: s.fullyAsleep,
        phase: s.phase,
        nextTurnIn: s.nextTurnIn,
        status: c.controls.element.querySelector('[role=status]')?.textContent ?? '',
      };
    },
    jointsOnBed: () => {
      const out: Record<string, [number, number, number]> = {};
      if (!c.rig) return out;
      for (const [k, p] of Object.entries(c.rig.jointsInParentFrame())) out[k] = [...toBedFrame(p!, room.bed)] as [number, number, number];
      return out;
    },
    skin: () => {
      if (!c.rig) throw new Error('no avatar yet');
      const parts = c.rig.rest.contacts('all');
      const f = contactFigures(parts, rolled(c.rig.frameState.lb));
      let inside = 0;
      let insidePart = '';
      // The spring-bone hair apart: it swings by itself.
      for (const [k, v] of Object.entries(f.inside)) if (k !== 'hair' && v && v.depth > inside) [inside, insidePart] = [v.depth, `${k} in the ${v.of}`];
      const out: Record<string, { gap: number; inside: number; surface: string }> = {};
      for (const p of BODY_PARTS) if (parts[p].points) out[p] = { gap: parts[p].gap, inside: parts[p].inside, surface: parts[p].surface };
      return {
        lowest: Math.min(...Object.entries(out).filter(([k]) => k !== 'hair').map(([, v]) => v.gap)),
        head: f.floats.head?.gap ?? null,
        back: f.floats.back?.gap ?? null,
        hips: f.floats.hips?.gap ?? null,
        inside,
        insidePart,
        hair: f.inside.hair?.depth ?? 0,
        parts: out,
      };
    },
    bed: () => ({
      mattressTop: room.bed.mattressTop,
      width: room.bed.width,
      length: room.bed.length,
      floorY: room.floorY,
      pillow: [...toBedFrame(room.bed.pillowCenter, room.bed)] as [number, number, number],
      pillowLength: room.bed.pillowLength,
      pillowWidth: room.bed.pillowWidth,
    }),
    probeHeights: (thresholds) => {
      if (!c.vrm) throw new Error('no avatar yet');
      return probeAvatarHeights(view.renderer, view.scene, view.camera, room.root, c.vrm.scene, thresholds);
    },
    setTimeScale: (k) => {
      c.setTimeScale(k);
      view.invalidate();
    },
    head: () => {
      const bone = c.vrm?.humanoid.getRawBoneNode('head');
      if (!bone || !c.rig) return null;
      return { ...view.toClient(bone.getWorldPosition(new Vector3())), nodding: c.rig.nodding };
    },
    face: () => ({ blink: c.rig?.face.blink ?? 0, applied: c.rig?.face.appliedBlink ?? 0, smile: c.rig?.face.smileWeight ?? 0, canCloseEyes: c.rig?.face.canCloseEyes ?? false }),
    faceCloseUp: (blink) => {
      const head = c.vrm?.humanoid.getRawBoneNode('head');
      if (!head || !c.rig) return;
      c.rig.face.blinkOverride = blink;
      head.updateWorldMatrix(true, false);
      const p = head.getWorldPosition(new Vector3()).add(new Vector3(0, 0.06, 0).applyQuaternion(head.getWorldQuaternion(new Quaternion())));
      // The face looks along the head's +Z (VRM 1.0 and the turned 0.x alike).
      const front = new Vector3(0, 0, 1).applyQuaternion(head.getWorldQuaternion(new Quaternion()));
      view.camera.position.copy(p).addScaledVector(front, 0.4);
      view.cameraRig.controls.target.copy(p);
      view.camera.lookAt(p);
      view.invalidate();
    },
    camera: () => {
      const p = view.camera.position;
      const t = view.cameraRig.controls.target;
      return { position: [p.x, p.y, p.z], target: [t.x, t.y, t.z] };
    },
    setView: (name) => {
      view.cameraRig.setView(name);
      view.invalidate();
    },
    sound: () => ({ level: c.sound.level, running: c.sound.running, muted: c.sound.muted, volume: c.sound.volume }),
    draws: () => view.draws,
    setAvatarVisible: (on) => {
      if (c.vrm) c.vrm.scene.visible = on;
      view.invalidate();
    },
    drawn: () => ({ e: c.rig?.frameState.e ?? 0, lb: c.rig?.frameState.lb ?? 0 }),
    xr: () => {
      const head = c.vrm?.humanoid.getRawBoneNode('head')?.getWorldPosition(new Vector3());
      const r = room.root;
      return { presenting: xr.presenting, presses: [...xr.presses], head: head ? [head.x, head.y, head.z] : null, roomRoot: [r.position.x, r.position.y, r.position.z, r.rotation.y] };
    },
    xrButton: (name) => {
      const p = xr.panel.buttonCenter(name);
      return [p.x, p.y, p.z];
    },
    xrPixels: () => xr.countPixels(),
    recheckVr: async () => {
      const ok = await immersiveVrAvailable();
      c.controls.setVrAvailable(ok);
      return ok;
    },
  };
  window.__bedroom = hook;
  return () => {
    if (window.__bedroom === hook) delete window.__bedroom;
  };
}
