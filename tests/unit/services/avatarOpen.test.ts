/**
 * A .glb avatar opens the same way as a .vrm, in Electron and in the browser host. Both run the same
 * backend behind their transports; a file dropped in Electron goes through openDropped (main opens the
 * path), in the browser its bytes go straight to the studio, and both end in Studio.openFile, which takes
 * any AVATAR_EXTENSIONS file as the avatar. Before, the backend's own extension list lacked .glb, so a
 * .glb dropped in Electron was refused as "not a studio file" while the browser opened it.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { FileDetails, LibrarySnapshot, OpenedFile } from '../../../shared/contract/studioApi';
import { StudioBackend } from '../../../main/services/backend';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { AVATAR_EXTENSIONS, isAvatarFile } from '../../../shared/formats/formats';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-avatar-open-');

describe('avatars open the same in Electron and in the browser host', () => {
  const avatar = makeMannequinVrm({});
  for (const host of ['electron', 'browser'] as const) {
    it(`${host}: a dropped .glb or .vrm avatar opens with its bytes, is listed and described as an avatar`, async () => {
      const root = tempDir();
      for (const ext of AVATAR_EXTENSIONS) writeFileSync(join(root, `robot${ext}`), avatar);
      writeFileSync(join(root, 'ROBOT2.GLB'), avatar);
      const b = new StudioBackend({ host, userDataDir: tempDir(), appVersion: '0', homeDir: tmpdir() });
      try {
        for (const name of ['robot.glb', 'robot.vrm', 'ROBOT2.GLB']) {
          // Electron: the preload reports the real drop, then the page opens it (tests/security/openDropped.test.ts).
          // Browser: a drop is read in the page; the same file typed as a path opens through openFile.
          if (host === 'electron') await b.noteDropped([join(root, name)]);
          const dropped = (
            host === 'electron' ? await b.invoke('openDropped', [join(root, name)]) : { kind: 'file', file: await b.invoke('openFile', [join(root, name)]) }
          ) as { kind: 'file'; file: OpenedFile };
          expect(dropped.kind, name).toBe('file');
          expect(dropped.file).toMatchObject({ path: join(root, name), name, ext: name.slice(name.lastIndexOf('.')).toLowerCase() });
          expect(Buffer.from(dropped.file.bytes).equals(Buffer.from(avatar)), name).toBe(true);
          // What the studio then does with it: the same test for both paths.
          expect(isAvatarFile(dropped.file.name)).toBe(true);
        }
        const snap = (await b.invoke('openFolder', [join(root)])) as LibrarySnapshot;
        expect(snap.entries.map((e) => [e.name, e.ext])).toEqual([
          ['ROBOT2.GLB', '.glb'],
          ['robot.glb', '.glb'],
          ['robot.vrm', '.vrm'],
        ]);
        expect((await b.invoke('describeFile', [join(root, 'robot.glb')])) as FileDetails).toEqual({ path: join(root, 'robot.glb'), kind: 'avatar' });
      } finally {
        await b.dispose();
      }
    });
  }

  it('the browser host opens a typed .glb path like a .vrm', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'robot.glb'), avatar);
    const b = new StudioBackend({ host: 'browser', userDataDir: tempDir(), appVersion: '0', homeDir: tmpdir() });
    try {
      const file = (await b.invoke('openFile', [join(root, 'robot.glb')])) as OpenedFile;
      expect(file).toMatchObject({ name: 'robot.glb', ext: '.glb' });
      expect(file.bytes.length).toBe(avatar.length);
    } finally {
      await b.dispose();
    }
  });
});
