/**
 * Issue 16, finding 6: saveFileAs created written.html and .bashrc and saveFile overwrote an existing
 * .html inside an opened folder. Writes the page asks for are now .vrma files only, never hidden
 * names, and only inside an opened folder (or beside an opened file); settings and autosave are main's
 * own writes and do not go through this door.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';

const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? String(e));
const bytes = new Uint8Array([1, 2, 3]);

describe('security: the page writes .vrma files only (finding 6)', () => {
  let tmp: string;
  let folder: string;
  let b: StudioBackend;
  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-write-')));
    folder = join(tmp, 'motions');
    mkdirSync(folder);
    writeFileSync(join(folder, 'page.html'), '<p>original</p>');
    writeFileSync(join(folder, 'walk.vrma'), 'old');
    b = new StudioBackend({ host: 'browser', userDataDir: join(tmp, 'data'), appVersion: '0', homeDir: tmp });
    await b.invoke('openFolder', [folder]);
  });
  afterAll(async () => {
    await b.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses other extensions, hidden names and overwriting non-motion files', async () => {
    const attempts: [string, Promise<unknown>][] = [
      ['saveFileAs written.html', b.invoke('saveFileAs', [{ bytes, suggestedName: 'x.vrma', path: join(folder, 'written.html') }])],
      ['saveFileAs .bashrc', b.invoke('saveFileAs', [{ bytes, suggestedName: 'x.vrma', path: join(folder, '.bashrc') }])],
      ['saveFileAs .hidden.vrma', b.invoke('saveFileAs', [{ bytes, suggestedName: 'x.vrma', path: join(folder, '.hidden.vrma') }])],
      ['saveFileAs no extension', b.invoke('saveFileAs', [{ bytes, suggestedName: 'x.vrma', path: join(folder, 'motion') }])],
      ['saveFile page.html', b.invoke('saveFile', [{ path: join(folder, 'page.html'), bytes }])],
      ['saveFileAs outside', b.invoke('saveFileAs', [{ bytes, suggestedName: 'x.vrma', path: join(tmp, 'x.vrma') }])],
    ];
    const refused: string[] = [];
    for (const [what, p] of attempts) if ((await codeOf(p)) === 'DENIED') refused.push(what);
    expect(refused).toEqual(attempts.map(([w]) => w));
    for (const name of ['written.html', '.bashrc', '.hidden.vrma', 'motion']) expect(existsSync(join(folder, name)), name).toBe(false);
    expect(existsSync(join(tmp, 'x.vrma'))).toBe(false);
    expect(readFileSync(join(folder, 'page.html'), 'utf8')).toBe('<p>original</p>');
  });

  it('still saves, saves as and exports .vrma inside the opened folder', async () => {
    expect(await b.invoke('saveFile', [{ path: join(folder, 'walk.vrma'), bytes }])).toEqual({ path: join(folder, 'walk.vrma'), size: 3 });
    expect(await b.invoke('saveFileAs', [{ bytes, suggestedName: 'new.vrma', path: join(folder, 'New.VRMA') }])).toEqual({ path: join(folder, 'New.VRMA'), size: 3 });
    expect(readFileSync(join(folder, 'walk.vrma'))).toEqual(Buffer.from(bytes));
  });
});
