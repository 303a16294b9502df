/**
 * When a view catches up with a change, so the avatar on screen comes first. A seek or an edit is one
 * task: the preview poses the avatar in it, and views that only show text or redraw the whole motion
 * (the expression sliders and frame fields, the dope sheet and curve view after an edit, the host's
 * window state) follow later, once however many changes came. Each function returned here is one such view's "something changed": many calls before
 * it runs are one run.
 */

/**
 * Runs `fn` once after the current task's script (a microtask): 200 seeks in one task sync a panel
 * once, and the next task (a pointer event, a test's next call) already finds the panel up to date.
 */
export function afterTask(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      fn();
    });
  };
}

/**
 * How long a view waits for the next animation frame before it runs anyway (a hidden window draws no
 * frames, and its panels should still be current when it shows again).
 */
const FRAME_WAIT_MS = 200;

/**
 * Runs `fn` once after the next animation frame has been drawn (a task queued from that frame's
 * callbacks): an edit's updated pose is drawn first and a view that redraws the whole motion
 * follows, one frame later. Without animation frames (a hidden window) it runs after FRAME_WAIT_MS.
 */
export function afterNextFrame(fn: () => void): () => void {
  let queued = false;
  const run = () => {
    if (!queued) return;
    queued = false;
    fn();
  };
  return () => {
    if (queued) return;
    queued = true;
    const timer = setTimeout(run, FRAME_WAIT_MS);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      setTimeout(run, 0);
    });
  };
}
