/**
 * A converted (or read) motion becoming the document, with one toast saying what happened; and the
 * files with takes (.fbx/.glb/.gltf), whose chosen take opens that way.
 */
import type { Motion } from '../../shared/motion/types';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import { formatLabel } from '../../shared/formats/formats';
import { documentName } from '../../shared/formats/outputNames';
import { NO_MODEL_WARNING } from '../../shared/convert/mmd/noModel';
import { t } from '../../shared/i18n';
import { warningText, type Messages } from '../ui/messages';
import type { OpenOptions } from './document';
import { openTakeFile } from './core';

/** What of the studio this needs (the Studio, without a cycle back to it). */
export interface OpenHost {
  readonly messages: Pick<Messages, 'show'>;
  readonly questions: { chooseTake(file: string, takes: readonly TakeInfo[]): Promise<string | null> } | null;
  openDocument(motion: Motion, opts: OpenOptions): void;
  confirmLeave(): Promise<boolean>;
}

/**
 * An .fbx/.glb/.gltf: parsed once by the core's takes module; with several takes the user picks one
 * (Cancel keeps the current document), which opens as NAME.TAKE (the name Convert Folder and the CLI
 * give its .vrma).
 */
export async function openTakes(studio: OpenHost, name: string, bytes: Uint8Array, path?: string): Promise<boolean> {
  const source = await openTakeFile(name, bytes);
  let take: string | undefined;
  if (source.takes.length > 1 && studio.questions) {
    const chosen = await studio.questions.chooseTake(name, source.takes);
    if (chosen === null) {
      source.release();
      return false;
    }
    take = chosen;
  }
  if (!(await studio.confirmLeave())) {
    source.release();
    return false;
  }
  const motion = await source.convert(take);
  const format = formatLabel(name);
  const count = source.takes.length;
  const takeName = take ?? source.takes[0]?.name ?? '';
  openConverted(studio, name, path, motion, format, count > 1 ? () => t('convert.takes.opened', { file: name, take: takeName, format, count }) : undefined, take);
  return true;
}

/** A converted (or read) motion becomes the document, with one toast saying what happened. */
export function openConverted(studio: OpenHost, name: string, path: string | undefined, motion: Motion, convertedFrom: string | undefined, convertedText?: () => string, take?: string): void {
  // The reader's and converter's warnings (specific: bone names, lines) go to the document's report,
  // worded in the user's language (re-read after a language switch), and one toast per file points at it.
  // Without an MMD model the core says "pass the model" (the CLI's --pmx): here the studio says how to give it.
  const reports = motion.warnings.map((
    w,
  ) => (w.detail === NO_MODEL_WARNING.detail ? () => t('convert.mmd.noModel', { file: name }) : () => t('studio.convert.warning', { file: name, detail: warningText(w) })));
  studio.openDocument(motion, { name: documentName(name, take), path, converted: !!convertedFrom, reports, ...(take !== undefined ? { take } : {}) });
  const count = reports.length;
  // A specific line (the take, the MMD model) wins; with warnings its toast points at the report.
  if (convertedText) studio.messages.show('notice', convertedText, { group: 'document', report: count > 0 });
  else if (count && convertedFrom) studio.messages.show('notice', () => t('studio.report.toastConverted', { file: name, format: convertedFrom, count }), { group: 'document', report: true });
  else if (count) studio.messages.show('notice', () => t('studio.report.toast', { file: name, count }), { group: 'document', report: true });
  else if (convertedFrom) studio.messages.show('notice', () => t('studio.convert.converted', { file: name, format: convertedFrom }), { group: 'document' });
}
