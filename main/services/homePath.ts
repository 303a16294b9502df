/**
 * Typed paths in the browser host's folder box may start with "~" for the home folder, as in a
 * terminal (issue 11): "~" and "~/motions" (or "~\\motions") become absolute. "~user" is not expanded
 * (another user's home is not the studio's business) and is refused later as a relative path.
 */
import { join } from 'node:path';

export function expandHome(typed: string, home: string): string {
  if (typed === '~') return home;
  if (typed.startsWith('~/') || typed.startsWith('~\\')) return join(home, typed.slice(2));
  return typed;
}
