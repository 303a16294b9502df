/**
 * Save, Save As, Export and "unsaved changes?" for the studio's document (document.ts), with the
 * answer every action owes the user: what was written where, or why not. The commands, the menu,
 * the desktop session and the leave dialog all call these; the disk is reached through a
 * DocumentStore built here from the StudioApi (or downloads without one).
 */
import type { PlatformInfo, StudioApi } from '../../shared/contract/studioApi';
import type { Studio } from '../app/studio';
import type { DocumentStore, ExportOutcome, SaveOutcome } from '../app/document';
import { choose } from '../ui/dialog';
import { errorText, warningText } from '../ui/messages';
import type { ExportFormat, ExportResult } from '../../shared/export/index';
import { exportMotionFile } from '../app/core';
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';
import { askSaveAsPath } from '../panels/saveAsDialog';
import { exportWriteOptions } from '../app/exportEncoding';
import { setExportFormat } from '../app/exportFormat';
import { exportSkeletonOptions } from '../app/exportSkeleton';
import { withSaveProgress } from './saveProgress';

export interface DocumentActions {
  save(): Promise<SaveOutcome | null>;
  saveAs(): Promise<SaveOutcome | null>;
  exportCopy(): Promise<ExportOutcome | null>;
  /** Export to MMD, BVH, glTF binary or FBX: says where it wrote and what the format left out. */
  exportAs(format: ExportFormat): Promise<ExportOutcome | null>;
  /**
   * Save / Don't save / Cancel when the document has unsaved edits; true when it may be replaced
   * ('open': another motion) or the window may close ('close': main asked, see closeRequests.ts).
   */
  confirmLeave(reason?: 'open' | 'close'): Promise<boolean>;
}

export function downloadBytes(bytes: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'model/gltf-binary' }));
  const a = h('a', { href: url, download: name, class: 'visually-hidden' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function storeFor(studio: Studio, api: StudioApi | null, platform: Promise<PlatformInfo | null>): DocumentStore {
  const native = async () => !!(await platform)?.nativeDialogs;
  const noApi = () => new Error(t('studio.doc.noFileAccess'));
  return {
    async replaceFile(path, bytes) {
      if (!api) throw noApi();
      return api.saveFile({ path, bytes });
    },
    async writeBeside(sourcePath, bytes, take, format) {
      if (!api) throw noApi();
      return api.exportMotion({ bytes, sourcePath, ...(take !== undefined ? { take } : {}), ...(format !== undefined ? { format } : {}) });
    },
    async saveAs(bytes, suggestedName) {
      if (!api) {
        downloadBytes(bytes, suggestedName);
        return {};
      }
      if (await native()) return api.saveFileAs({ bytes, suggestedName });
      // Browser host: the page's own dialog picks an opened folder and a name.
      const target = await askSaveAsPath(api, suggestedName, studio.sourcePath);
      if (!target) return null;
      if ('download' in target) {
        downloadBytes(bytes, suggestedName);
        return {};
      }
      return api.saveFileAs({ bytes, suggestedName, path: target.path, ...(target.overwrite ? { overwrite: true } : {}) });
    },
    async exportLoose(bytes, suggestedName) {
      if (api && (await native())) {
        const r = await api.saveFileAs({ bytes, suggestedName });
        return r ? { path: r.path, name: r.path.split(/[\\/]/).pop() ?? suggestedName } : null;
      }
      downloadBytes(bytes, suggestedName);
      return { name: suggestedName };
    },
  };
}

/**
 * The export's bytes: GLB baked on the avatar on screen (the built-in mannequin when none is loaded);
 * VMD for MMD's standard bone set, BVH and FBX on the standard proportions (the CLI takes a model or
 * an avatar's proportions).
 */
function writeExport(studio: Studio, format: ExportFormat): Promise<ExportResult> {
  return exportMotionFile(format, studio.motion, exportSkeletonOptions(studio, format));
}

export function createDocumentActions(studio: Studio, platform: Promise<PlatformInfo | null>): DocumentActions {
  const store = storeFor(studio, studio.api, platform);
  const doc = studio.doc;

  const reportSave = (out: SaveOutcome): SaveOutcome => {
    const file = doc.fileLabel;
    if (out.kind === 'saved')
      studio.messages.show('success', () => (out.path ? t('studio.export.saved', { file: out.path }) : t('studio.doc.savedDownload', { file: `${doc.name}.vrma` })), { group: 'file' });
    else if (out.kind === 'unchanged') studio.messages.show('notice', () => t('studio.doc.nothingToSave', { file }), { group: 'file' });
    return out;
  };
  const reportCancelled = (out: SaveOutcome): SaveOutcome => {
    const file = doc.fileLabel;
    if (out.kind === 'cancelled') studio.messages.show('notice', () => t('studio.doc.saveCancelled', { file }), { group: 'file' });
    return out;
  };

  const actions: DocumentActions = {
    async save() {
      try {
        // Progress and Cancel after half a second (saveProgress.ts); a cancelled Save leaves the file as it was.
        const out = await withSaveProgress(studio.messages.element, doc.fileLabel, (control) => doc.save(store, control));
        return reportCancelled(reportSave(out));
      } catch (e) {
        const file = doc.fileLabel;
        studio.messages.error(() => t('studio.doc.saveFileFailed', { file, detail: errorText(e) }));
        return null;
      }
    },
    async saveAs() {
      try {
        return reportSave(await doc.saveAs(store));
      } catch (e) {
        const file = doc.fileLabel;
        studio.messages.error(() => t('studio.doc.saveAsFileFailed', { file, detail: errorText(e) }));
        return null;
      }
    },
    async exportCopy() {
      try {
        const out = await doc.export(store, exportWriteOptions(studio.settings));
        if (out) studio.messages.show('success', () => (out.path ? t('studio.doc.exportedCopy', { file: out.path }) : t('studio.doc.exportedDownload', { file: out.name })), { group: 'file' });
        return out;
      } catch (e) {
        const file = doc.fileLabel;
        studio.messages.error(() => t('studio.doc.exportFileFailed', { file, detail: errorText(e) }));
        return null;
      }
    },
    async exportAs(format) {
      try {
        const result = await writeExport(studio, format);
        const out = await doc.exportAs(store, format, result.bytes);
        if (!out) return null;
        // The last format exported to is the one "Export to" offers next (kept in the settings).
        setExportFormat(studio, format);
        studio.messages.show('success', () => (out.path ? t('studio.doc.exportedCopy', { file: out.path }) : t('studio.doc.exportedDownload', { file: out.name })), { group: 'file' });
        // What the format could not carry, in the user's language (the CLI prints the same lines).
        if (result.report.length) studio.messages.notice(() => t('studio.doc.exportLeftOut', { format: format.toUpperCase(), items: result.report.map(warningText).join('; ') }));
        return out;
      } catch (e) {
        studio.messages.error(() => t('studio.doc.exportFileFailed', { file: doc.fileLabel, detail: errorText(e) }));
        return null;
      }
    },
    async confirmLeave(reason = 'open') {
      if (!doc.dirty) return true;
      const choice = await choose({
        id: 'unsaved-dialog',
        title: t('studio.unsaved.title'),
        text: t(reason === 'close' ? 'studio.unsaved.closeText' : 'studio.unsaved.text', { file: doc.fileLabel }),
        choices: [
          { id: 'save', label: t('studio.unsaved.save'), default: true },
          { id: 'discard', label: t('studio.unsaved.discard'), danger: true },
          { id: 'cancel', label: t('studio.unsaved.cancel') },
        ],
        cancel: 'cancel',
      });
      if (choice === 'cancel') return false;
      if (choice === 'discard') return true;
      const out = await actions.save();
      return out !== null && out.kind !== 'cancelled';
    },
  };
  return actions;
}
