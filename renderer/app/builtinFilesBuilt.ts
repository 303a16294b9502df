/**
 * The renderer build's builtinFiles.ts (swapped in by electron.vite.config.ts): the mannequin made
 * at build time by shared/assets/mannequin.ts, byte for byte what the page would generate, served
 * beside the scripts (index.html preloads it). null when it cannot be fetched: the page then
 * generates it (renderer/app/core.ts).
 */
import { MANNEQUIN_URL } from 'virtual:vrma-builtin-files';

export async function builtinMannequin(): Promise<Uint8Array | null> {
  try {
    const res = await fetch(MANNEQUIN_URL);
    return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
  } catch {
    return null;
  }
}
