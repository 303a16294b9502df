/**
 * Keeps the outside world in step with the studio through the StudioApi: the command registry
 * mirrored into the desktop menu (menu picks come back as command ids), the window title with its
 * dirty marker, and the falloff radius stored in the settings.
 */
import type { Studio } from '../app/studio';
import type { MenuCommand } from '../../shared/contract/studioApi';
import { commandLabel } from '../app/commands';
import { t, onLocaleChange } from '../../shared/i18n';
import { afterNextFrame } from '../ui/deferred';

function accelerator(shortcut: string | undefined): string | undefined {
  if (!shortcut) return undefined;
  return shortcut
    .split('+')
    .map((p) => (p === 'Mod' ? 'CmdOrCtrl' : p === 'ArrowLeft' ? 'Left' : p === 'ArrowRight' ? 'Right' : p))
    .join('+');
}

export function syncDesktop(studio: Studio): void {
  const api = studio.api;
  if (!api) return;
  const quiet = (p: Promise<unknown> | undefined) => void p?.catch(() => {});
  const menuCommands = (): MenuCommand[] =>
    studio.commands
      .all()
      .filter((c) => c.menu)
      .map((c) => ({
        id: c.id,
        label: commandLabel(c),
        menu: c.menu === 'playback' ? 'view' : (c.menu as MenuCommand['menu']),
        // Single-key shortcuts stay in the renderer: as menu accelerators they would fire while typing.
        accelerator: c.shortcuts?.[0]?.startsWith('Mod') ? accelerator(c.shortcuts[0]) : undefined,
        enabled: studio.commands.isEnabled(c.id),
        ...(c.isChecked ? { checked: c.isChecked() } : {}),
      }));
  let pending = false;
  const pushMenu = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      quiet(api.setCommands(menuCommands()));
    });
  };
  try {
    api.onCommand((id) => void studio.commands.run(id));
  } catch {
    /* no event channel */
  }
  studio.commands.onChange(pushMenu);
  pushMenu();
  // The window title and the OS's represented file follow the document's file (walk.vrma once saved).
  // After the next drawn frame, and only when it differs from what was sent: an edit announces the
  // document twice, and each call to the host had cost 2-9 ms between the drag's end and its pose.
  let sent = '';
  const pushDoc = afterNextFrame(() => {
    const state = { title: t('studio.title', { name: studio.doc.fileLabel }), dirty: studio.dirty, path: studio.doc.filePath ?? studio.sourcePath };
    const key = JSON.stringify(state);
    if (key === sent) return;
    sent = key;
    quiet(api.setDocumentState(state));
  });
  studio.events.on('document', pushDoc);
  onLocaleChange(pushDoc);
  pushDoc();
  const settings = studio.settings;
  quiet(settings.ready().then((s) => s.falloffRadius !== studio.falloff && studio.setFalloff(s.falloffRadius)));
  studio.events.on('falloff', (v) => {
    if (settings.value.falloffRadius !== v) quiet(settings.set({ falloffRadius: v }));
  });
}
