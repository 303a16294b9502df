/**
 * Files of the built-in assets that the renderer's build makes from the core's own generators, so
 * the page does not run them before its first frame (issue 30): the mannequin (VRM 1.0, 45 ms of the
 * main thread's CPU when generated in the page) and the walk cycle's keys (30 ms). This default,
 * used by the dev server and the tests, has no such files: renderer/app/core.ts then generates them
 * in the page. The build swaps in builtinFilesBuilt.ts (electron.vite.config.ts: builtinFiles).
 */
import type { LoopTracks } from '../../shared/assets/loopBaker';

export async function builtinMannequin(): Promise<Uint8Array | null> {
  return null;
}

export async function builtinWalkTracks(): Promise<LoopTracks | null> {
  return null;
}
