/** What the page and a pose worker (poseWorker.ts) say to each other; every request gets one reply of its id. */
export type PoseWorkerRequest =
  /** Load the solution: its script, its files by name (absolute URLs) and its options. */
  | { readonly id: number; readonly kind: 'init'; readonly script: string; readonly files: Readonly<Record<string, string>>; readonly options: Record<string, unknown> }
  /** One frame (moved, not copied) at a stamp later than the last this worker was sent. */
  | { readonly id: number; readonly kind: 'frame'; readonly image: ImageBitmap; readonly stamp: number };

export type PoseWorkerReply =
  /** simd: the solution runs its SIMD wasm build. */
  | { readonly id: number; readonly kind: 'ready'; readonly simd: boolean }
  | { readonly id: number; readonly kind: 'none' }
  /** Flat x, y, z per landmark: world in metres about the hips, image in 0..1 of the frame. */
  | { readonly id: number; readonly kind: 'pose'; readonly world: number[]; readonly image: number[]; readonly visibility: number[] }
  | { readonly id: number; readonly kind: 'error'; readonly message: string };
