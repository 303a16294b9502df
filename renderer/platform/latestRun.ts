/**
 * One run at a time, and at most one waiting: a call while a run is in progress queues one more run,
 * and later calls join that queued one (it reads the latest state when it starts, so nothing is
 * lost). The page's autosave goes out this way on every change, with no timer of its own: the one
 * debouncer is main's (main/services/autosave.ts), so the 1 s promise is not spent twice.
 */
export function latestRunner(task: () => Promise<void>): () => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  return () => {
    if (queued) return queued;
    const run = chain.then(() => {
      queued = null;
      return task();
    });
    queued = run;
    chain = run.catch(() => undefined);
    return run;
  };
}
