/**
 * Convert Folder in the studio: which folder (asked, the last-opened one preselected), a progress
 * bar among the notices while main converts, one line per folder, and the summary dialog. Files of
 * more than MAX_TAKES_WITHOUT_ASKING takes make the backend ask first; the user decides.
 */
import type { ConvertSummary, StudioApi } from '../../shared/contract/studioApi';
import { StudioApiError } from '../../shared/contract/studioApi';
import { MAX_TAKES_WITHOUT_ASKING } from '../../shared/contract/schema';
import type { Studio } from '../app/studio';
import { askConvertTarget, askManyTakes, showConvertSummary } from '../panels/convertFolderDialog';
import { t, formatNumber } from '../../shared/i18n';
import { errorText } from '../ui/messages';

export async function convertFolder(studio: Studio, api: StudioApi): Promise<ConvertSummary | null> {
  let folders = await api.listLibrary();
  if (!folders.length && (await api.getPlatform()).nativeDialogs) {
    const opened = await api.openFolder();
    if (opened) folders = [opened];
  }
  if (!folders.length) {
    studio.messages.error(() => t('convert.folder.needsFolder'));
    return null;
  }
  // Which folder: asked, with the last-opened one preselected, never guessed.
  const last = (await studio.settings.refresh()).lastFolder ?? undefined; // main keeps it: read again
  const target = await askConvertTarget(folders, folders.find((f) => f.root === last)?.root ?? folders[0].root);
  if (!target) return null;
  const bar = document.createElement('progress');
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', t('studio.convertFolder.progress'));
  bar.className = 'convert-progress';
  const box = document.createElement('div');
  box.className = 'message notice progress';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('studio.convertFolder.converting'));
  const label = document.createElement('span');
  box.append(label, bar);
  studio.messages.element.append(box);
  const off = api.onConvertProgress((p) => {
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    label.textContent = t('studio.convertFolder.step', { done: p.done, total: p.total, file: p.path.split(/[\\/]/).pop() ?? p.path });
  });
  const summaries: ConvertSummary[] = [];
  // Files of more than 50 takes: the backend answers CONFIRM first; the user decides (finding 12).
  const convertAsking = async (folder: string, overwrite: boolean) => {
    try {
      return await api.convertFolder({ folder, overwrite });
    } catch (e) {
      if (!(e instanceof StudioApiError && e.code === 'CONFIRM')) throw e;
      return api.convertFolder({ folder, overwrite, allTakes: await askManyTakes(MAX_TAKES_WITHOUT_ASKING) });
    }
  };
  try {
    for (const folder of target.roots) {
      label.textContent = t('studio.convertFolder.start', { folder });
      const summary = await convertAsking(folder, target.overwrite);
      summaries.push(summary);
      const failures = summary.failed.map((f) => `${f.source.split(/[\\/]/).pop()} (${f.message})`).join('; ');
      const text = () =>
        t('studio.convertFolder.doneIn', {
          folder,
          converted: summary.converted.length,
          skipped: summary.skipped.length + (summary.empty?.length ?? 0),
          failed: summary.failed.length,
          failures,
          seconds: formatNumber(summary.elapsedMs / 1000, 1, 1),
        });
      studio.messages.show(summary.failed.length ? 'error' : 'success', text, { group: summary.failed.length ? undefined : 'convert' });
    }
  } catch (e) {
    studio.messages.error(() => t('studio.convertFolder.failed', { detail: errorText(e) }));
  } finally {
    off();
    box.remove();
  }
  if (summaries.length) await showConvertSummary(summaries);
  return summaries[summaries.length - 1] ?? null;
}
