/**
 * Work for an element only once it is on screen (library thumbnails: a folder of hundreds of motions
 * makes a strip for the entries in view, and for the others as they scroll in). An element is on
 * screen when any of it shows inside the window and every scrolling ancestor (IntersectionObserver
 * with the window as root clips by those ancestors); a hidden element (display: none, a filtered
 * library row) is not. Without IntersectionObserver the work runs at once.
 */
export class WhenVisible {
  private readonly waiting = new Map<Element, () => void>();
  private readonly observer: IntersectionObserver | null = typeof IntersectionObserver === 'undefined'
    ? null
    : new IntersectionObserver((records) => {
      for (const r of records) {
        if (!r.isIntersecting) continue;
        const run = this.waiting.get(r.target);
        this.forget(r.target);
        run?.();
      }
    });

  /** Runs `run` once, the first time `el` is on screen. */
  run(el: Element, run: () => void): void {
    if (!this.observer) {
      run();
      return;
    }
    this.waiting.set(el, run);
    this.observer.observe(el);
  }

  /** Drops the work of an element that left the page. */
  forget(el: Element): void {
    this.waiting.delete(el);
    this.observer?.unobserve(el);
  }

  /** Drops all waiting work (the list was rebuilt). */
  clear(): void {
    for (const el of this.waiting.keys()) this.observer?.unobserve(el);
    this.waiting.clear();
  }

  /** How many elements wait to be shown. */
  get size(): number {
    return this.waiting.size;
  }
}
