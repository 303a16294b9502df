/**
 * The Export "Smaller file" choice (issue 18): when on, Export writes rotations as 16-bit integers
 * (writeVrma's `quantize`; docs/quantized-vrma.md). Off by default, kept in the studio's settings
 * (Settings.exportSmallerFile, through the one settings client), so it survives restarts of the app
 * and of the browser host. Only Export uses it: Save and the autosave keep float, so the document's
 * own file reads everywhere (UniVRM does not read the quantized encoding).
 */
import type { WriteOptions } from '../../shared/vrma/write';
import type { SettingsClient } from './settings';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';

/** What Export passes to writeVrma. */
export function exportWriteOptions(settings: SettingsClient): WriteOptions {
  return settings.value.exportSmallerFile ? { quantize: true } : {};
}

/** The checkbox shown beside the Export button. */
export function smallerFileCheckbox(settings: SettingsClient): HTMLLabelElement {
  const input = h('input', { type: 'checkbox', id: 'export-smaller-file' });
  input.checked = settings.value.exportSmallerFile;
  settings.onChange((s) => (input.checked = s.exportSmallerFile));
  // Not stored (no settings service): the choice lasts for this page.
  input.addEventListener('change', () => void settings.set({ exportSmallerFile: input.checked }).catch(() => undefined));
  const label = h('label', { class: 'field check', for: 'export-smaller-file' }, input, tText(h('span'), 'optimize.smallerFile'));
  tAttr(label, 'title', 'optimize.smallerFileHelp');
  return label;
}
