/**
 * TEST-ONLY hook: window.__studio lets the browser tests and the bench read numbers the UI does not
 * print (motion bytes, normalized bone rotations, timeline state) and simulate gizmo drags by
 * setting the normalized node's rotation and firing the TransformControls events the real gizmo
 * fires. Nothing in the studio reads it, and the product never loads it: startStudio imports this
 * module (its own chunk) only when the app or host runs with VRMA_STUDIO_TEST_HOOK=1
 * (renderer/app/testHookEnabled.ts). It composes what each view answers through its inspect() with
 * the probes of its own files: state and intents (testHookState.ts), the pose and the reference
 * player (testHookPose.ts), drags (testHookDrags.ts), pixels (testHookPixels.ts).
 */
import type { Studio } from '../app/studio';
import type { PoseEditor } from '../pose/poseEditor';
import type { IkHandles } from '../pose/ikHandles';
import type { LookAtTarget } from '../viewport/lookAtTarget';
import type { ContactStrip } from '../timeline/contactStrip';
import type { TimelineView } from '../timeline/timelineView';
import type { OnionSkin } from '../viewport/onionSkin';
import type { Viewport } from '../viewport/viewport';
import { stateProbes } from './testHookState';
import { poseProbes, poseReaders } from './testHookPose';
import { dragProbes } from './testHookDrags';
import { pixelProbes } from './testHookPixels';

export interface TestHookDeps {
  /** The viewport itself (the studio sees only its StudioViewport side): frames, camera, pixels. */
  readonly viewport: Viewport;
  readonly poseEditor: PoseEditor;
  readonly ikHandles: IkHandles;
  readonly lookAtTarget?: LookAtTarget;
  readonly contactStrip?: ContactStrip;
  readonly timeline: TimelineView;
  readonly startedAt: number;
  readonly firstAvatarFrameAt: () => number | null;
  readonly onionSkin?: OnionSkin;
}

export function installTestHook(studio: Studio, deps: TestHookDeps): void {
  const read = poseReaders(studio);
  const hook = { ...stateProbes(studio, deps, read), ...poseProbes(studio, read), ...dragProbes(studio, deps, read), ...pixelProbes(studio, deps) };
  (window as unknown as { __studio: typeof hook }).__studio = hook;
}
