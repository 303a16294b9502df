/**
 * Library entries tell what they are: size and date at once, kind and duration (worked out by the
 * backend on demand, StudioApi.describeFile) the first time the entry is hovered or focused, so a
 * folder of thousands of files costs nothing until the user looks.
 */
import type { FileDetails, LibraryEntry, StudioApi } from '../../shared/contract/studioApi';

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function detailsText(d: FileDetails): string {
  if (d.kind === 'unreadable') return `unreadable: ${d.error ?? 'unknown problem'}`;
  if (d.kind === 'avatar') return 'avatar';
  if (d.kind === 'pose') return 'pose (one frame)';
  return `motion, ${(d.duration ?? 0).toFixed(2)} s`;
}

/** Puts size and date into the element's tooltip now, kind and duration on first hover or focus. */
export function withLibraryDetails<E extends HTMLElement>(api: StudioApi | null, entry: LibraryEntry, element: E): E {
  const base = `${entry.relPath} — ${sizeText(entry.size)}, ${new Date(entry.mtimeMs).toLocaleString()}`;
  element.title = base;
  element.dataset.size = String(entry.size);
  if (!api) return element;
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    api.describeFile(entry.path).then(
      (d) => {
        const text = detailsText(d);
        element.title = `${base} — ${text}`;
        element.dataset.details = text;
      },
      () => {
        asked = false; // try again on the next hover
      },
    );
  };
  element.addEventListener('pointerenter', ask);
  element.addEventListener('focus', ask);
  return element;
}
