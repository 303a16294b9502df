/**
 * The native menu, rebuilt whenever the studio sends its command registry (setCommands) or the
 * recent list changes. Items that act on the document (Save, Export, Undo, the edits...) are the
 * studio's commands: clicking one sends its id back to the page (onCommand). Items that only need
 * main (Open Folder/File, Recent, About) run here and hand the result to the page as an openRequest.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';
import type { MenuCommand, RecentEntry } from '../../shared/contract/studioApi';
import { getLocale, t, translate, type MessageKey } from '../../shared/i18n';

/** Electron names role items itself, in English; in another language the catalogue's name replaces it. */
const roleLabel = (key: MessageKey): { label?: string } => (getLocale() === 'en' ? {} : { label: t(key) });

/** Command ids the File and Edit menus expect from the studio's registry, with their defaults. */
export const STANDARD_COMMANDS: readonly MenuCommand[] = [
  { id: 'file.save', label: 'Save', menu: 'file', accelerator: 'CmdOrCtrl+S' },
  { id: 'file.saveAs', label: 'Save As…', menu: 'file', accelerator: 'CmdOrCtrl+Shift+S' },
  { id: 'file.export', label: 'Export .vrma', menu: 'file', accelerator: 'CmdOrCtrl+E' },
  { id: 'file.convertFolder', label: 'Convert Folder…', menu: 'file' },
  { id: 'edit.undo', label: 'Undo', menu: 'edit', accelerator: 'CmdOrCtrl+Z' },
  { id: 'edit.redo', label: 'Redo', menu: 'edit', accelerator: 'CmdOrCtrl+Shift+Z' },
];

export interface MenuActions {
  sendCommand(id: string): void;
  openFolder(): void;
  openFile(): void;
  openRecent(entry: RecentEntry): void;
  clearRecent(): void;
  about(): void;
  isDev: boolean;
}

export function buildMenuTemplate(
  commands: readonly MenuCommand[],
  recent: readonly RecentEntry[],
  actions: MenuActions,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const byId = new Map(commands.map((c) => [c.id, c]));
  const used = new Set<string>();
  const taken = new Set<string>();
  const item = (c: MenuCommand): MenuItemConstructorOptions => {
    used.add(c.id);
    // One accelerator per menu: a later command asking for a taken one gets none.
    const accelerator = c.accelerator && !taken.has(c.accelerator) ? c.accelerator : undefined;
    if (accelerator) taken.add(accelerator);
    return {
      id: c.id,
      label: c.label,
      accelerator,
      enabled: c.enabled !== false,
      ...(c.checked !== undefined ? { type: 'checkbox' as const, checked: c.checked } : {}),
      click: () => actions.sendCommand(c.id),
    };
  };
  /** A standard item: the studio's command when it has one (its label and state), else disabled. */
  const standard = (id: string): MenuItemConstructorOptions => {
    const own = byId.get(id);
    const english = STANDARD_COMMANDS.find((c) => c.id === id)!;
    // Without the studio's own item (which comes translated), the default label in the menu's language.
    const def = { ...english, label: translate(`command.${id}.label`, undefined, english.label) };
    // The studio's own shortcut wins (it also handles the keys in the page); without one, none is claimed.
    if (own) return item({ ...def, ...own });
    return { ...item(def), enabled: false };
  };
  const rest = (menu: MenuCommand['menu']) => commands.filter((c) => c.menu === menu && !used.has(c.id) && !STANDARD_COMMANDS.some((s) => s.id === c.id) && !c.id.startsWith('language.'));
  // The studio's language.* commands (check items) form the Language submenu of View.
  const languages = commands.filter((c) => c.id.startsWith('language.')).map((c) => ({ ...item(c), type: 'radio' as const }));
  taken.add('CmdOrCtrl+O').add('CmdOrCtrl+Shift+O');

  const file: MenuItemConstructorOptions[] = [
    { label: t('menu.openFolder'), accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openFolder() },
    { label: t('menu.openFile'), accelerator: 'CmdOrCtrl+O', click: () => actions.openFile() },
    {
      label: t('menu.openRecent'),
      submenu: [
        ...recent.map((r) => ({ label: `${basename(r.path)}${r.kind === 'folder' ? '/' : ''}  —  ${r.path}`, click: () => actions.openRecent(r) })),
        ...(recent.length ? [{ type: 'separator' as const }] : []),
        { label: t('menu.clearRecent'), enabled: recent.length > 0, click: () => actions.clearRecent() },
      ],
    },
    { type: 'separator' },
    standard('file.save'),
    standard('file.saveAs'),
    standard('file.export'),
    standard('file.convertFolder'),
  ];
  const fileExtra = rest('file').filter((c) => c.id !== 'file.open');
  if (fileExtra.length) file.push({ type: 'separator' }, ...fileExtra.map(item));
  file.push({ type: 'separator' }, platform === 'darwin' ? { role: 'close', ...roleLabel('menu.close') } : { role: 'quit', ...roleLabel('menu.quit') });

  const edit: MenuItemConstructorOptions[] = [standard('edit.undo'), standard('edit.redo'), { type: 'separator' }];
  const edits = rest('edit');
  if (edits.length) edit.push(...edits.map(item), { type: 'separator' });
  // Text fields (paths, parameters) still need the clipboard.
  edit.push({ role: 'cut', ...roleLabel('menu.cut') }, { role: 'copy', ...roleLabel('menu.copy') }, { role: 'paste', ...roleLabel('menu.paste') }, {
    role: 'selectAll',
    ...roleLabel('menu.selectAll'),
  });

  const view: MenuItemConstructorOptions[] = rest('view').map(item);
  if (view.length) view.push({ type: 'separator' });
  if (languages.length) view.push({ label: t('menu.language'), submenu: languages }, { type: 'separator' });
  view.push(
    { role: 'resetZoom', ...roleLabel('menu.resetZoom') },
    { role: 'zoomIn', ...roleLabel('menu.zoomIn') },
    { role: 'zoomOut', ...roleLabel('menu.zoomOut') },
    { type: 'separator' },
    { role: 'togglefullscreen', ...roleLabel('menu.fullscreen') },
  );
  if (actions.isDev) view.push({ type: 'separator' }, { role: 'reload', ...roleLabel('menu.reload') }, { role: 'toggleDevTools', ...roleLabel('menu.devTools') });

  const help: MenuItemConstructorOptions[] = [...rest('help').map(item), { label: t('menu.about'), click: () => actions.about() }];

  const template: MenuItemConstructorOptions[] = [
    { label: t('menu.file'), submenu: file },
    { label: t('menu.edit'), submenu: edit },
    { label: t('menu.view'), submenu: view },
    { label: t('menu.help'), role: 'help', submenu: help },
  ];
  if (platform === 'darwin') {
    template.unshift({
      label: 'VRMA Studio',
      submenu: [
        { label: t('menu.about'), click: () => actions.about() },
        { type: 'separator' },
        { role: 'services', ...roleLabel('menu.services') },
        { type: 'separator' },
        { role: 'hide', ...roleLabel('menu.hide') },
        { role: 'hideOthers', ...roleLabel('menu.hideOthers') },
        { role: 'unhide', ...roleLabel('menu.unhide') },
        { type: 'separator' },
        { role: 'quit', ...roleLabel('menu.quit') },
      ],
    });
  }
  return template;
}
