/**
 * The desktop app itself, driven by playwright-core's Electron support: launch with a motion folder
 * on the command line (as the OS does for a file association), pick walk.vmd in the library, edit,
 * export: walk.vrma appears beside it. Needs the Electron runtime binary (downloaded by `npm ci`
 * where github.com is reachable); without it the test is reported as skipped with the reason.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import { REPO_DIR } from '../../testkit/host';
import { HAS_FIXTURES, NO_FIXTURES_REASON, fixturePath } from '../../testkit/fixtures';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';

const { electronBinary } = createRequire(__filename)(join(REPO_DIR, 'scripts', 'electronRuntime.cjs')) as {
  electronBinary(): { path: string | null; reason: string | null };
};
const runtime = electronBinary();
const BUILT = existsSync(join(REPO_DIR, 'out', 'main', 'index.js')) && existsSync(join(REPO_DIR, 'out', 'preload', 'index.cjs'));
const reason = !runtime.path ? runtime.reason : !BUILT ? 'the app is not built (npm run build)' : !HAS_FIXTURES ? NO_FIXTURES_REASON : null;

describe('desktop app (Electron)', () => {
  let app: ElectronApplication | null = null;
  let work = '';
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.skipIf(reason !== null)(
    `launches with a folder, opens walk.vmd from the library, edits and exports walk.vrma beside it${reason ? ` [skipped: ${reason}]` : ''}`,
    async () => {
      work = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-electron-e2e-')));
      const folder = join(work, 'motions');
      mkdirSync(folder);
      copyFileSync(fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'), join(folder, 'walk.vmd'));
      chmodSync(join(folder, 'walk.vmd'), 0o644);

      app = await electron.launch({
        executablePath: runtime.path!,
        args: [REPO_DIR, folder, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
        env: { ...process.env, VRMA_USER_DATA: join(work, 'user-data'), VRMA_STUDIO_TEST_HOOK: '1' } as Record<string, string>,
        timeout: 60_000,
      });
      const page = await app.firstWindow();
      await page.waitForFunction(
        () => {
          const s = (window as unknown as { __studio?: { firstAvatarFrameAt(): number | null } }).__studio;
          return !!s && s.firstAvatarFrameAt() !== null;
        },
        undefined,
        { timeout: 60_000 },
      );

      // The window runs sandboxed with the typed bridge only.
      const env = await page.evaluate(() => ({
        bridge: typeof (window as unknown as { studio?: unknown }).studio,
        node: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        origin: location.origin === 'null' ? `${location.protocol}//${location.host}` : location.origin,
      }));
      expect(env).toEqual({ bridge: 'object', node: 'undefined', process: 'undefined', origin: 'app://studio' });

      const library = page.getByRole('list', { name: 'Library files' });
      await library.getByRole('button', { name: 'walk.vmd', exact: true }).click({ timeout: 30_000 });
      await page.waitForFunction(() => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === 'walk');
      await page.locator('#edit-reverse').click();
      await page.waitForFunction(() => (window as unknown as { __studio: { state(): { historyLength: number } } }).__studio.state().historyLength === 2);
      const edited = Buffer.from(
        await page.evaluate(() => (window as unknown as { __studio: { motionBytes(): string } }).__studio.motionBytes()),
        'base64',
      );
      await page.getByRole('button', { name: 'Export .vrma' }).click();
      const target = join(folder, 'walk.vrma');
      await expect.poll(() => existsSync(target), { timeout: 15_000 }).toBe(true);
      const written = readFileSync(target);
      expect(written.equals(edited)).toBe(true);
      expect(Buffer.from(writeVrma(readVrma(new Uint8Array(written)))).equals(edited)).toBe(true);
    },
    180_000,
  );
});
