/**
 * Paths the preload saw in a trusted OS drop (Electron relays them from its own channel, which the
 * page cannot reach): only they may be opened with openDropped, and only briefly.
 */
import { promises as fs } from 'node:fs';
import { checkPathSyntax } from './accessPolicy';

/** How long a path the preload saw in a real drop may be opened with openDropped. */
export const DROP_GRANT_MS = 60_000;

export class DropGrants {
  /** Real paths, with when they stop being grantable. */
  private readonly dropped = new Map<string, number>();
  private noted: Promise<void> = Promise.resolve();

  note(paths: readonly string[]): Promise<void> {
    const until = Date.now() + DROP_GRANT_MS;
    // Chained, so an openDropped arriving right after the drop message waits for these to be noted.
    this.noted = this.noted.then(async () => {
      for (const p of paths.slice(0, 1000)) {
        try {
          this.dropped.set(await fs.realpath(checkPathSyntax(p)), until);
        } catch {
          /* vanished or not a path: nothing to grant */
        }
      }
    });
    return this.noted;
  }

  /** The real path when `path` was just dropped (the grant is used up), else null. */
  async take(path: string): Promise<string | null> {
    await this.noted;
    const now = Date.now();
    for (const [p, until] of this.dropped) if (until <= now) this.dropped.delete(p);
    const real = await fs.realpath(checkPathSyntax(path)).catch(() => null);
    if (real === null || !this.dropped.has(real)) return null;
    this.dropped.delete(real);
    return real;
  }
}
