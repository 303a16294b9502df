/**
 * The Export "Smaller file" choice (issue 18): when on, Export writes rotations as 16-bit integers
 * (writeVrma's `quantize`; docs/quantized-vrma.md). Off by default, remembered in this browser
 * profile. Only Export uses it: Save and the autosave keep float, so the document's own file reads
 * everywhere (UniVRM does not read the quantized encoding).
 */
import type { WriteOptions } from '../../shared/vrma/write';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';

const STORAGE_KEY = 'vrma-studio.export.smallerFile';

function stored(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

let smallerFile = stored();

/** What Export passes to writeVrma. */
export function exportWriteOptions(): WriteOptions {
  return smallerFile ? { quantize: true } : {};
}

export function setSmallerFile(on: boolean): void {
  smallerFile = on;
  try {
    localStorage.setItem(STORAGE_KEY, on ? '1' : '0');
  } catch {
    /* storage unavailable: the choice lasts for this page */
  }
}

/** The checkbox shown beside the Export button. */
export function smallerFileCheckbox(): HTMLLabelElement {
  const input = h('input', { type: 'checkbox', id: 'export-smaller-file' });
  input.checked = smallerFile;
  input.addEventListener('change', () => setSmallerFile(input.checked));
  const label = h('label', { class: 'field check', for: 'export-smaller-file' }, input, tText(h('span'), 'optimize.smallerFile'));
  tAttr(label, 'title', 'optimize.smallerFileHelp');
  return label;
}
