/**
 * What the kernel needs of the picture it draws into: a scene to put the avatar in, a frame to draw
 * on demand, a callback each frame (the preview clock), and the camera framing a box. The kernel owns
 * this interface and never imports a view; renderer/viewport/viewport.ts implements it and the shell
 * (startStudio) hands it in. Views that need more of the viewport (camera, passes, orbit) are given
 * the Viewport itself by the shell, not through the studio.
 */
import type { Box3, Object3D, Scene, WebGLRenderer } from 'three';

/** Per-frame work before drawing (seconds since the last frame); returns true while it needs more frames (an animation runs). */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing means "no redraw needed".
export type FrameCallback = (dt: number) => boolean | void;

export interface StudioViewport {
  /** The scene the avatar is added to. */
  readonly scene: Scene;
  /** The scene's renderer: an avatar's KTX2/Basis textures are transcoded to a format its GPU takes. */
  readonly renderer: WebGLRenderer;
  /** Runs `cb` before each frame is drawn; returns the function that removes it. */
  onFrame(cb: FrameCallback): () => void;
  /** Something in the scene changed: draw it in the next animation frame (many calls, one draw). */
  requestRender(): void;
  /** Starts compiling the shader programs of `object` (default: the whole scene), without waiting for them (a new avatar). */
  prepare(object?: Object3D): void;
  /** Points the camera at `box` (the space the avatar takes over the motion). */
  frameBox(box: Box3): void;
}
