/**
 * What the studio's first frame needs and can start before the host has answered (issue 30): the
 * viewport (its WebGL context, the grid's program sent to the GPU process), the walk cycle, and the
 * built-in mannequin read into an avatar with its programs compiling. None of it needs the session,
 * the settings or the language, so renderer/main.ts starts it as soon as the studio's chunk has loaded,
 * while the page waits on the session and settings calls; startStudio then builds the rest around it.
 */
import { h } from '../ui/dom';
import { Viewport } from '../viewport/viewport';
import { mannequinBytes, walkCycleMotion } from '../app/core';
import { loadAvatar, type LoadedAvatar } from '../avatar/loadAvatar';
import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';
import type { Motion } from '../../shared/motion/types';

export interface StudioPrelude {
  readonly viewportBox: HTMLElement;
  readonly viewport: Viewport;
  /** The generated walk cycle; null when it could not be made (the studio opens in the rest pose). */
  readonly walk: Promise<Motion | null>;
  /** The mannequin, read with the viewport's renderer and its programs sent; null when no mannequin could be made. Rejects with the reader's error. */
  readonly mannequin: Promise<LoadedAvatar | null>;
}

export function prepareStudio(): StudioPrelude {
  const viewportBox = h('div', { class: 'viewport', id: 'viewport' });
  const viewport = new Viewport(viewportBox);
  const walk = walkCycleMotion().catch(() => null);
  const mannequin = (async () => {
    const bytes = await mannequinBytes('1.0');
    if (!bytes) return null;
    const avatar = await loadAvatar(bytes, BUILTIN_AVATAR_NAME, [], viewport.renderer);
    viewport.prepare(avatar.vrm.scene);
    return avatar;
  })();
  // Whoever takes it reports a failure; until then it must not count as unhandled.
  mannequin.catch(() => undefined);
  return { viewportBox, viewport, walk, mannequin };
}
