/**
 * The renderer build's builtinFiles.ts (swapped in by electron.vite.config.ts): the mannequin and
 * the walk cycle's keys made at build time by shared/assets (mannequin.ts, walkCycle.ts), byte for
 * byte what the page would generate, served beside the scripts (index.html preloads them). null when
 * one cannot be fetched or read: the page then generates it (renderer/app/core.ts).
 */
import { MANNEQUIN_URL, WALK_TRACKS_URL } from 'virtual:vrma-builtin-files';
import { readLoopTracks } from '../../shared/assets/loopTracksFile';
import type { LoopTracks } from '../../shared/assets/loopBaker';

async function fetched(url: string): Promise<Uint8Array | null> {
  try {
    const res = await fetch(url);
    return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

export function builtinMannequin(): Promise<Uint8Array | null> {
  return fetched(MANNEQUIN_URL);
}

export async function builtinWalkTracks(): Promise<LoopTracks | null> {
  const bytes = await fetched(WALK_TRACKS_URL);
  try {
    return bytes && readLoopTracks(bytes);
  } catch {
    return null;
  }
}
