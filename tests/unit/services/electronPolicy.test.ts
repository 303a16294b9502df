/**
 * The Electron main's decisions that do not need the Electron runtime: which IPC senders are
 * trusted, and the native menu built from the studio's command registry.
 */
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { isTrustedSender, originOf, type SenderEvent } from '../../../main/electron/senderCheck';
import { buildMenuTemplate, type MenuActions } from '../../../main/electron/menuTemplate';
import { StudioApiError, type MenuCommand } from '../../../shared/contract/studioApi';
import { answerStudioCall } from '../../../main/electron/ipcCall';

function event(url: string, { subframe = false } = {}): SenderEvent {
  const main = { url } as never;
  const frame = subframe ? ({ url } as never) : main;
  return { senderFrame: frame, sender: { mainFrame: main } } as SenderEvent;
}

describe('IPC sender check', () => {
  it('accepts only the main frame of our own origin', () => {
    expect(isTrustedSender(event('app://studio/index.html'), 'app://studio')).toBe(true);
    expect(isTrustedSender(event('app://studio/index.html#bedroom'), 'app://studio')).toBe(true);
    expect(isTrustedSender(event('app://studio/index.html', { subframe: true }), 'app://studio')).toBe(false);
    expect(isTrustedSender(event('app://evil/index.html'), 'app://studio')).toBe(false);
    expect(isTrustedSender(event('https://example.com/'), 'app://studio')).toBe(false);
    expect(isTrustedSender(event('file:///tmp/walk.vmd'), 'app://studio')).toBe(false);
    expect(isTrustedSender(event('not a url'), 'app://studio')).toBe(false);
    expect(isTrustedSender({ senderFrame: null, sender: { mainFrame: {} } } as never, 'app://studio')).toBe(false);
    expect(isTrustedSender(event('http://localhost:5173/'), 'http://localhost:5173')).toBe(true);
  });

  it('computes origins of custom schemes (URL.origin would say "null")', () => {
    expect(new URL('app://studio/x').origin).toBe('null');
    expect(originOf('app://studio/x')).toBe('app://studio');
  });
});

describe('IPC call handling', () => {
  it('refuses untrusted senders before running anything', async () => {
    let ran = false;
    const r = await answerStudioCall('readFile', false, ['/m/a.vrma'], async () => (ran = true));
    expect(r).toEqual({ ok: false, error: { code: 'DENIED', message: 'readFile: caller is not the studio page' } });
    expect(ran).toBe(false);
  });

  it('validates arguments at run time', async () => {
    let ran = false;
    const r = await answerStudioCall('exportMotion', true, [{ bytes: 'AAEC', sourcePath: '/m/walk.vmd' }], async () => (ran = true));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('BAD_ARGUMENT');
    expect(ran).toBe(false);
  });

  it('returns values, and errors with their codes as data', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await answerStudioCall('readFile', true, ['/m/a.vrma'], async () => bytes)).toEqual({ ok: true, value: bytes });
    expect(await answerStudioCall('readFile', true, ['/m/a.vrma'], async () => Promise.reject(new StudioApiError('DENIED', 'no')))).toEqual({
      ok: false,
      error: { code: 'DENIED', message: 'no' },
    });
    const enoent = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(await answerStudioCall('readFile', true, ['/m/a.vrma'], async () => Promise.reject(enoent))).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'ENOENT: no such file' },
    });
  });
});

describe('native menu from the command registry', () => {
  const sent: string[] = [];
  const calls: string[] = [];
  const actions: MenuActions = {
    sendCommand: (id) => sent.push(id),
    openFolder: () => calls.push('openFolder'),
    openFile: () => calls.push('openFile'),
    openRecent: (e) => calls.push(`recent:${e.path}`),
    clearRecent: () => calls.push('clearRecent'),
    about: () => calls.push('about'),
    isDev: false,
  };
  const registry: MenuCommand[] = [
    { id: 'file.open', label: 'Open…', menu: 'file', accelerator: 'CmdOrCtrl+O' },
    { id: 'file.export', label: 'Export .vrma', menu: 'file', accelerator: 'CmdOrCtrl+E', enabled: true },
    { id: 'file.save', label: 'Save', menu: 'file', accelerator: 'CmdOrCtrl+S', enabled: false },
    { id: 'edit.undo', label: 'Undo', menu: 'edit', accelerator: 'CmdOrCtrl+Z', enabled: true },
    { id: 'edit.redo', label: 'Redo', menu: 'edit', accelerator: 'CmdOrCtrl+Shift+Z', enabled: false },
    { id: 'edit.mirror', label: 'Mirror', menu: 'edit' },
    { id: 'edit.reverse', label: 'Reverse', menu: 'edit', accelerator: 'CmdOrCtrl+Z' },
    { id: 'view.frame', label: 'Frame avatar', menu: 'view' },
    { id: 'help.shortcuts', label: 'Keyboard shortcuts', menu: 'help' },
  ];
  const submenu = (t: MenuItemConstructorOptions[], label: string) => t.find((m) => m.label === label)!.submenu as MenuItemConstructorOptions[];
  const labels = (items: MenuItemConstructorOptions[]) => items.filter((i) => i.label).map((i) => i.label);

  it('has File, Edit, View and Help with the standard items and accelerators', () => {
    const t = buildMenuTemplate(registry, [{ path: '/m/walks', kind: 'folder', openedAt: 1 }], actions, 'linux');
    expect(t.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
    const file = submenu(t, '&File');
    expect(labels(file)).toEqual(['Open Folder…', 'Open File…', 'Open Recent', 'Save', 'Save As…', 'Export .vrma', 'Convert Folder…']);
    expect(file.find((i) => i.label === 'Open Folder…')!.accelerator).toBe('CmdOrCtrl+Shift+O');
    expect(file.find((i) => i.label === 'Export .vrma')!.accelerator).toBe('CmdOrCtrl+E');
    expect(file.find((i) => i.label === 'Save')!.enabled).toBe(false); // the studio said so
    expect(file.find((i) => i.label === 'Save As…')!.enabled).toBe(false); // not in the registry
    const recent = file.find((i) => i.label === 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    expect(recent[0].label).toContain('/m/walks');
    const edit = submenu(t, '&Edit');
    expect(labels(edit)).toEqual(['Undo', 'Redo', 'Mirror', 'Reverse']);
    expect(edit[0].accelerator).toBe('CmdOrCtrl+Z');
    // A second command asking for a taken accelerator gets none instead of stealing it.
    expect(edit.find((i) => i.label === 'Reverse')!.accelerator).toBeUndefined();
    expect(labels(submenu(t, '&View'))).toContain('Frame avatar');
    expect(labels(submenu(t, '&Help'))).toEqual(['Keyboard shortcuts', 'About VRMA Studio']);
  });

  it('menu clicks send the command id back; native items run in main', () => {
    sent.length = 0;
    calls.length = 0;
    const t = buildMenuTemplate(registry, [{ path: '/m/walks', kind: 'folder', openedAt: 1 }], actions, 'linux');
    const click = (items: MenuItemConstructorOptions[], label: string) => (items.find((i) => i.label === label)!.click as () => void)();
    click(submenu(t, '&File'), 'Export .vrma');
    click(submenu(t, '&Edit'), 'Mirror');
    click(submenu(t, '&Edit'), 'Undo');
    click(submenu(t, '&File'), 'Open Folder…');
    click(submenu(t, '&Help'), 'About VRMA Studio');
    const recent = submenu(t, '&File').find((i) => i.label === 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    (recent[0].click as () => void)();
    expect(sent).toEqual(['file.export', 'edit.mirror', 'edit.undo']);
    expect(calls).toEqual(['openFolder', 'about', 'recent:/m/walks']);
  });

  it('adds the application menu on macOS', () => {
    const t = buildMenuTemplate(registry, [], actions, 'darwin');
    expect(t[0].label).toBe('VRMA Studio');
    expect(t).toHaveLength(5);
  });
});
