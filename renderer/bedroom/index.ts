/**
 * The bedroom scene of the studio: mountBedroom(root, ctx) builds its own view (scene.ts), the
 * controller (controller.ts: settings, sleep cycle, panel, status, poses, sound) and the avatar rig
 * inside `root` and returns { dispose }. The studio gives it the current avatar, optional access to
 * the user's files, and a place to keep its settings (context.ts).
 */
import './bedroom.css';
import type { BedroomContext, BedroomHandle } from './context';
import { BedroomController } from './controller';
import { BedroomView } from './scene';
import { BedroomXr, immersiveVrAvailable } from './xr';
import { testHookEnabled } from '../platform/testHookEnabled';
import { t } from '../../shared/i18n';
import { markSceneReady } from '../ui/sceneReady';

export type { BedroomContext, BedroomHandle } from './context';
export { listPoseFiles, type PoseFileEntry, type PoseLibrarySource } from './poseLibrary';

export function mountBedroom(root: HTMLElement, ctx: BedroomContext): BedroomHandle {
  const container = document.createElement('div');
  container.className = 'bedroom';
  const viewBox = document.createElement('div');
  viewBox.className = 'bedroom-canvas-box';
  container.append(viewBox);
  root.append(container);

  const view = new BedroomView(viewBox);
  const controller = new BedroomController(ctx, view);
  container.append(controller.controls.element);

  // A click (not a drag: that orbits) on the head pats it.
  const canvas = view.renderer.domElement;
  let down: { x: number; y: number } | null = null;
  const onDown = (ev: PointerEvent) => {
    down = { x: ev.clientX, y: ev.clientY };
  };
  const onUp = (ev: PointerEvent) => {
    const start = down;
    down = null;
    if (!start || !controller.vrm || Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > 6) return;
    const hit = view.pick(ev.clientX, ev.clientY, controller.vrm.scene);
    if (hit && controller.headNear(hit)) controller.pat();
  };
  canvas.addEventListener('pointerdown', onDown);
  canvas.addEventListener('pointerup', onUp);
  view.start();

  let disposed = false;
  // VR when the browser offers an immersive VR session (Electron and the browser host alike).
  const xr = new BedroomXr(view, controller);
  controller.onEnterVr = () => {
    xr.enter().catch((e) => controller.say(() => t('bedroom.msg.vrFailed', { detail: (e as Error).message }), 'error'));
  };
  void immersiveVrAvailable().then((ok) => !disposed && controller.controls.setVrAvailable(ok));
  // Test instrumentation only when the app or host runs with VRMA_STUDIO_TEST_HOOK=1
  // (renderer/app/testHookEnabled.ts); its code is a chunk of its own, loaded only then.
  let removeHook = () => {};
  void testHookEnabled().then(async (on) => {
    if (disposed) return;
    if (on) {
      const { installBedroomTestHook } = await import('./testHook');
      if (disposed) return;
      removeHook = installBedroomTestHook(controller, view, xr);
    }
    markSceneReady('bedroom');
  });
  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      canvas.removeEventListener('pointerdown', onDown);
      canvas.removeEventListener('pointerup', onUp);
      removeHook();
      markSceneReady('bedroom', false);
      xr.dispose();
      controller.dispose();
      view.dispose();
      container.remove();
    },
  };
}
