/** The Electron menu in the chosen language: main's own items translated, the studio's language commands as a radio submenu. */
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, type MenuActions } from '../../../main/electron/menuTemplate';
import { aboutText } from '../../../main/electron/credits';
import { setLocale } from '../../../shared/i18n';
import type { MenuCommand } from '../../../shared/contract/studioApi';

afterEach(() => setLocale('en'));

const actions: MenuActions = { sendCommand() {}, openFolder() {}, openFile() {}, openRecent() {}, clearRecent() {}, about() {}, isDev: false };
const sub = (items: MenuItemConstructorOptions[], label: string) => items.find((m) => m.label === label)!.submenu as MenuItemConstructorOptions[];
const labels = (items: MenuItemConstructorOptions[]) => items.filter((i) => i.label).map((i) => i.label);

// What the studio sends after switching to Japanese: its labels already translated (commandLabel).
const registry: MenuCommand[] = [
  { id: 'file.export', label: '.vrma を書き出し', menu: 'file', accelerator: 'CmdOrCtrl+E' },
  { id: 'edit.undo', label: '元に戻す', menu: 'edit', accelerator: 'CmdOrCtrl+Z', enabled: true },
  { id: 'language.system', label: 'システムの言語', menu: 'view', checked: false },
  { id: 'language.en', label: 'English', menu: 'view', checked: false },
  { id: 'language.ja', label: '日本語', menu: 'view', checked: true },
  { id: 'help.shortcuts', label: 'キーボードショートカット', menu: 'help' },
];

describe('menu in Japanese', () => {
  it('top menus, File items, roles and the about text follow the locale', () => {
    setLocale('ja');
    const t = buildMenuTemplate(registry, [], actions, 'linux');
    expect(t.map((m) => m.label)).toEqual(['ファイル(&F)', '編集(&E)', '表示(&V)', 'ヘルプ(&H)']);
    const file = sub(t, 'ファイル(&F)');
    // Save / Save As / Convert Folder were not sent by the studio: disabled, with the catalogue's labels.
    expect(labels(file)).toEqual(['フォルダを開く…', 'ファイルを開く…', '最近使ったファイル', '保存', '名前を付けて保存…', '.vrma を書き出し', 'フォルダを一括変換…', '終了']);
    expect(labels(sub(t, '編集(&E)'))).toEqual(['元に戻す', 'やり直し', '切り取り', 'コピー', '貼り付け', 'すべて選択']);
    expect(labels(sub(t, 'ヘルプ(&H)'))).toEqual(['キーボードショートカット', 'VRMA Studio について']);
    expect(aboutText('1.2.3')).toMatch(/^VRMA Studio 1\.2\.3\nVRM アバターのためのモーションスタジオ/);
  });

  it('the language commands form a radio submenu of View with the current one checked', () => {
    setLocale('ja');
    const view = sub(buildMenuTemplate(registry, [], actions, 'linux'), '表示(&V)');
    const lang = sub(view, '言語');
    expect(lang.map((i) => [i.id, i.type, i.checked])).toEqual([
      ['language.system', 'radio', false],
      ['language.en', 'radio', false],
      ['language.ja', 'radio', true],
    ]);
    // Not listed a second time among View's other items.
    expect(view.filter((i) => String(i.id ?? '').startsWith('language.'))).toEqual([]);
  });

  it('in English the same template is the English one', () => {
    const t = buildMenuTemplate(registry, [], actions, 'linux');
    expect(t.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
    expect(sub(sub(t, '&View'), 'Language').length).toBe(3);
  });
});
