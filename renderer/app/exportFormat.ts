/**
 * The Export menu's format (issue 26): which of MMD, BVH, glTF binary or FBX the "Export to" button
 * (the edit panel's File group) writes, chosen beside it and remembered in this browser profile like
 * Export's "Smaller file". The File menu also has one command per format (studioCommands.ts).
 */
import type { ExportFormat } from '../../shared/export/index';
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';

const STORAGE_KEY = 'vrma-studio.export.format';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['vmd', 'bvh', 'glb', 'fbx'];

function stored(): ExportFormat {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return EXPORT_FORMATS.includes(v as ExportFormat) ? (v as ExportFormat) : 'vmd';
  } catch {
    return 'vmd';
  }
}

let chosen: ExportFormat = stored();

export function chosenExportFormat(): ExportFormat {
  return chosen;
}

export function setExportFormat(format: ExportFormat): void {
  chosen = format;
  try {
    localStorage.setItem(STORAGE_KEY, format);
  } catch {
    /* storage unavailable: the choice lasts for this page */
  }
}

/** The "Export to" button and its format list in one cell of the panel's button grid (no extra rows). */
export function exportFormatControl(button: HTMLButtonElement): HTMLDivElement {
  const select = h('select', { id: 'export-format' }, ...EXPORT_FORMATS.map((f) => h('option', { value: f }, `.${f}`)));
  select.value = chosen;
  select.addEventListener('change', () => setExportFormat(select.value as ExportFormat));
  tAttr(select, 'aria-label', 'studio.exportFormat');
  tAttr(select, 'title', 'studio.exportFormatHelp');
  return h('div', { class: 'export-to' }, button, select);
}
