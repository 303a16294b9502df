/**
 * Issue 24, finding 9: `openFolder('~/.ssh')` asked for confirmation, `openFolder('~')` did not, and
 * then readFile served ~/.ssh/id_rsa and any file type under any hidden folder. Now the home folder
 * itself and a folder holding hidden folders are confirmed like hidden folders, and below an opened
 * folder the page reads only motions, models, avatars and the resources a .gltf beside them
 * references, never inside hidden folders, unless the user opened that file by name.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';

function home(): string {
  const h = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-home-')));
  mkdirSync(join(h, '.ssh'));
  writeFileSync(join(h, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  mkdirSync(join(h, 'motions', '.cache'), { recursive: true });
  writeFileSync(join(h, 'motions', 'walk.vrma'), 'vrma bytes');
  writeFileSync(join(h, 'motions', '.cache', 'old.vrma'), 'hidden vrma');
  writeFileSync(join(h, 'motions', '.env'), 'TOKEN=1');
  writeFileSync(join(h, 'motions', 'notes.txt'), 'not a motion');
  mkdirSync(join(h, 'motions', 'cube', 'textures'), { recursive: true });
  writeFileSync(join(h, 'motions', 'cube', 'cube.gltf'), JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: 'cube%20mesh.bin', byteLength: 4 }], images: [{ uri: 'textures/skin.png' }] }));
  writeFileSync(join(h, 'motions', 'cube', 'cube mesh.bin'), 'mesh');
  writeFileSync(join(h, 'motions', 'cube', 'textures', 'skin.png'), 'png');
  writeFileSync(join(h, 'motions', 'cube', 'other.bin'), 'not referenced');
  return h;
}

const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? String(e));

describe('security: typed folder paths expose no hidden folders (finding 9)', () => {
  it('the home folder asks first; once granted, .ssh, hidden files and non-motion files are refused, motions and referenced .gltf resources read', async () => {
    const h = home();
    const b = new StudioBackend({ host: 'browser', homeDir: h, userDataDir: join(h, 'data-not-hidden'), appVersion: '0' });
    try {
      expect(await codeOf(b.invoke('openFolder', [h]))).toBe('CONFIRM');
      expect(await codeOf(b.invoke('openFolder', [h, { confirmed: true }]))).toBe('ok');
      const read = (...p: string[]) => codeOf(b.invoke('readFile', [join(h, ...p)]));
      expect(await read('.ssh', 'id_rsa')).toBe('DENIED');
      expect(await read('motions', '.cache', 'old.vrma')).toBe('DENIED');
      expect(await read('motions', '.env')).toBe('DENIED');
      expect(await read('motions', 'notes.txt')).toBe('DENIED');
      expect(await read('motions', 'cube', 'other.bin')).toBe('DENIED');
      expect(await read('motions', 'walk.vrma')).toBe('ok');
      expect(await read('motions', 'cube', 'cube.gltf')).toBe('ok');
      expect(await read('motions', 'cube', 'cube mesh.bin')).toBe('ok');
      expect(await read('motions', 'cube', 'textures', 'skin.png')).toBe('ok');
      expect(Buffer.from((await b.invoke('readFile', [join(h, 'motions', 'walk.vrma')])) as Uint8Array).toString()).toBe('vrma bytes');
      // Opened by name (asked first: it is hidden), the file is the user's choice and readable.
      expect(await codeOf(b.invoke('openFile', [join(h, 'motions', '.cache', 'old.vrma')]))).toBe('CONFIRM');
    } finally {
      await b.dispose();
      rmSync(h, { recursive: true, force: true });
    }
  });

  it('a folder holding hidden folders asks first (naming them); one without opens straight away', async () => {
    const h = home();
    mkdirSync(join(h, 'project', '.git'), { recursive: true });
    mkdirSync(join(h, 'plain'));
    const b = new StudioBackend({ host: 'browser', homeDir: h, userDataDir: join(h, 'data-not-hidden'), appVersion: '0' });
    try {
      await expect(b.invoke('openFolder', [join(h, 'project')])).rejects.toMatchObject({ code: 'CONFIRM', message: expect.stringMatching(/hidden folders \(\.git\)/) });
      expect(await codeOf(b.invoke('openFolder', [join(h, 'plain')]))).toBe('ok');
      expect(await codeOf(b.invoke('openFolder', [join(h, 'project'), { confirmed: true }]))).toBe('ok');
    } finally {
      await b.dispose();
      rmSync(h, { recursive: true, force: true });
    }
  });
});
