/**
 * The Export menu's format (issue 26): which of MMD, BVH, glTF binary or FBX the "Export to" button
 * (the edit panel's File group) writes, chosen beside it. The last format chosen or exported to (the
 * File menu has one command per format, studioCommands.ts) is kept in the studio's Settings
 * (Settings.exportFormat, persisted by main), read at start like the onion skin's.
 */
import { EXPORT_FORMATS, isExportFormat, type ExportFormat } from '../../shared/export/exportFormats';
import type { Studio } from './studio';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';
import { exportSkeletonControl } from './exportSkeleton';

export { EXPORT_FORMATS };

let chosen: ExportFormat = 'vmd';
const listeners = new Set<(f: ExportFormat) => void>();

export function chosenExportFormat(): ExportFormat {
  return chosen;
}

/** The user chose (or exported to) `format`: shown at once, saved in the settings. */
export function setExportFormat(studio: Studio, format: ExportFormat): void {
  const changed = chosen !== format;
  chosen = format;
  if (changed) for (const l of listeners) l(format);
  if (!studio.api || studio.settings?.exportFormat === format) return;
  studio.api.setSettings({ exportFormat: format }).then(
    (saved) => (studio.settings = saved),
    () => undefined, // no settings service: the choice lasts for this page
  );
}

/** The "Export to" button, its format list and what to write it for (exportSkeleton.ts), in one cell of the panel's button grid. */
export function exportFormatControl(studio: Studio, button: HTMLButtonElement): HTMLDivElement {
  const select = h('select', { id: 'export-format' }, ...EXPORT_FORMATS.map((f) => h('option', { value: f }, `.${f}`)));
  select.value = chosen;
  listeners.add((f) => (select.value = f));
  select.addEventListener('change', () => setExportFormat(studio, select.value as ExportFormat));
  tAttr(select, 'aria-label', 'studio.exportFormat');
  tAttr(select, 'title', 'studio.exportFormatHelp');
  // The saved choice, once the settings are read (unless the user chose meanwhile).
  const initial = chosen;
  studio.api?.getSettings().then(
    (s) => {
      if (chosen === initial && isExportFormat(s.exportFormat)) {
        chosen = s.exportFormat;
        for (const l of listeners) l(chosen);
      }
    },
    () => undefined,
  );
  const skeleton = exportSkeletonControl(studio, () => chosen, (cb) => listeners.add(() => cb()));
  return h('div', { class: 'export-to' }, button, select, skeleton);
}
