/**
 * Keeps the notification area inside the view it belongs to (issue 27): the viewport's top-right
 * corner in the studio, so a stack of toasts never covers the transport bar, Set IN/OUT or the
 * timeline, whatever the splitters and the window size are; the bedroom's view while it shows. The
 * area is fixed (it outlives a scene switch) and follows the view's box.
 */
const MARGIN = 8;
/** Never wider than this (px): a toast is a line or three, not a panel. */
const MAX_WIDTH = 420;

export function placeNotices(area: HTMLElement, views: readonly HTMLElement[]): () => void {
  const place = () => {
    const view = views.map((v) => v.getBoundingClientRect()).find((r) => r.width > 0 && r.height > 0);
    if (!view) return;
    area.style.top = `${Math.round(view.top + MARGIN)}px`;
    area.style.right = `${Math.round(window.innerWidth - view.right + MARGIN)}px`;
    area.style.maxHeight = `${Math.max(0, Math.round(view.height - 2 * MARGIN))}px`;
    area.style.maxWidth = `${Math.max(0, Math.min(MAX_WIDTH, Math.round(view.width - 2 * MARGIN)))}px`;
  };
  const observer = new ResizeObserver(place);
  for (const v of views) observer.observe(v);
  window.addEventListener('resize', place);
  // No first place() here: reading the view's box now forced a layout of the whole page before the
  // start-up had built it (25 ms of the first frame). The observer's first notice, which comes with
  // the first layout and before the first paint, places the area.
  return place;
}
