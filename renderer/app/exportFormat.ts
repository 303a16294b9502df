/**
 * The Export menu's format (issue 26): which of MMD, BVH, glTF binary or FBX the "Export to" button
 * (the edit panel's File group) writes, chosen beside it. The last format chosen or exported to (the
 * File menu has one command per format, studioCommands.ts) is kept in the studio's Settings
 * (Settings.exportFormat, persisted by main) through the studio's one settings client (settings.ts).
 */
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/export/exportFormats';
import type { Studio } from './studio';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';
import { exportSkeletonControl } from './exportSkeleton';

export { EXPORT_FORMATS };

/** The format "Export to" writes: the settings' (the default until they are read). */
export function chosenExportFormat(studio: Studio): ExportFormat {
  return studio.settings.value.exportFormat;
}

/** The user chose (or exported to) `format`: shown at once, saved in the settings. */
export function setExportFormat(studio: Studio, format: ExportFormat): void {
  if (chosenExportFormat(studio) === format) return;
  // Not stored (no settings service): the choice lasts for this page.
  studio.settings.set({ exportFormat: format }).catch(() => undefined);
}

/** The "Export to" button, its format list and what to write it for (exportSkeleton.ts), in one cell of the panel's button grid. */
export function exportFormatControl(studio: Studio, button: HTMLButtonElement): HTMLDivElement {
  const select = h('select', { id: 'export-format' }, ...EXPORT_FORMATS.map((f) => h('option', { value: f }, `.${f}`)));
  select.value = chosenExportFormat(studio);
  const changed = new Set<() => void>();
  // The saved choice once the settings are read, and every choice made since (the list, the File menu).
  studio.settings.onChange((s, patch) => {
    if (patch && !patch.exportFormat) return;
    select.value = s.exportFormat;
    for (const cb of changed) cb();
  });
  select.addEventListener('change', () => setExportFormat(studio, select.value as ExportFormat));
  tAttr(select, 'aria-label', 'studio.exportFormat');
  tAttr(select, 'title', 'studio.exportFormatHelp');
  const skeleton = exportSkeletonControl(studio, () => chosenExportFormat(studio), (cb) => changed.add(cb));
  return h('div', { class: 'export-to' }, button, select, skeleton);
}
