/**
 * The testkit's one wait on a condition (instead of a fixed sleep): polls `done` until it holds, and
 * fails naming `what` if it has not after `timeoutMs` (a generous bound for a loaded machine, never a
 * figure the test asserts). Events that arrive asynchronously (file watchers, change streams, workers)
 * are awaited this way; the bound only limits how long a broken build hangs.
 */
export async function waitFor(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, pollMs = 10): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** The next turn of the event loop: callbacks already queued (I/O, immediates) have run. */
export const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));
