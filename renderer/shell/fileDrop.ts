/** Files dropped anywhere on the window open like files chosen with Open (several at once: avatar first). */
import type { Studio } from '../app/studio';
import { t } from '../../shared/i18n';
import { errorText } from '../ui/messages';
import { isAvatarFile } from '../../shared/formats/formats';

export function bindFileDrop(studio: Studio, target: Window): void {
  target.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      document.body.classList.add('drop-target');
    }
  });
  target.addEventListener('dragleave', () => document.body.classList.remove('drop-target'));
  target.addEventListener('drop', async (e) => {
    document.body.classList.remove('drop-target');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    files.sort((a, b) => Number(!isAvatarFile(a.name)) - Number(!isAvatarFile(b.name)));
    for (const f of files) {
      const path = studio.api?.pathForFile?.(f) ?? undefined;
      if (path && studio.api) {
        // Electron: main opens the dropped path (so exports may go beside it); a dropped folder joins the library.
        try {
          const opened = await studio.api.openDropped(path);
          if (opened.kind === 'file') await studio.openFile(opened.file.name, opened.file.bytes, opened.file.path);
          continue;
        } catch (e) {
          studio.messages.error(() => t('studio.open.fileFailed', { file: f.name, detail: errorText(e) }));
          continue;
        }
      }
      await studio.openFile(f.name, new Uint8Array(await f.arrayBuffer()), path ?? undefined);
    }
  });
}
