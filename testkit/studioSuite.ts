/**
 * Set-up shared by the browser suites (tests/e2e): the built host and a Chromium kept for a whole
 * suite, and a temporary folder of writable copies of fixtures. Each registers its own
 * beforeAll/afterAll, so a suite says what it needs in one line. For one studio page on a host of
 * its own, use openStudio (testkit/studioHarness.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newStudioPage } from './browser';
import { startHost, type StartHostOptions, type StartedHost } from './host';
import { hook, openFolder, openStudio, waitForState, waitForStudio, type StudioSession } from './studioHarness';
import { fixturePath } from './fixtures';
import { renderVideo, type VideoOptions } from './captureRender';

export interface SuiteHost {
  /** Started in beforeAll; read it inside tests and hooks. */
  readonly host: StartedHost;
  readonly browser: Browser;
}

/** One browser host and one Chromium for the tests of the enclosing describe; both stopped after them. */
export function useHostAndBrowser(opts: StartHostOptions = {}): SuiteHost {
  let host: StartedHost | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    host = await startHost(opts);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });
  return {
    get host() {
      if (!host) throw new Error('useHostAndBrowser: the host is started in beforeAll');
      return host;
    },
    get browser() {
      if (!browser) throw new Error('useHostAndBrowser: the browser is started in beforeAll');
      return browser;
    },
  };
}

/**
 * The capture suites' set-up: a Chromium records `video()` (renderVideo) as `name` in a new temporary
 * folder, then the browser host starts; all three go after the tests.
 */
export function useRecordedVideo(prefix: string, name: string, video: () => VideoOptions): SuiteHost & { readonly folder: string } {
  let folder = '';
  let host: StartedHost | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), prefix));
    browser = await launchBrowser();
    const o = video();
    const { webm, drawn } = await renderVideo(browser, o);
    console.log(`recorded ${drawn} frames in ${o.duration} s of motion: ${webm.length} bytes of WebM`);
    writeFileSync(join(folder, name), webm);
    host = await startHost();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return {
    get folder() {
      return folder;
    },
    get host() {
      if (!host) throw new Error('useRecordedVideo: the host is started in beforeAll');
      return host;
    },
    get browser() {
      if (!browser) throw new Error('useRecordedVideo: the browser is started in beforeAll');
      return browser;
    },
  };
}

/** A new temporary folder holding `files()` ({ name: bytes or text }) for the enclosing describe; removed after. */
export function useWrittenFolder(prefix: string, files: () => Record<string, Uint8Array | string>): { readonly dir: string } {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    for (const [name, bytes] of Object.entries(files())) writeFileSync(join(dir, name), bytes);
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
  };
}

export interface OpenedFile {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The page's errors (newStudioPage). */
  readonly errors: string[];
  /** The url of every worker the page started. */
  readonly workers: string[];
  close(): Promise<void>;
}

/**
 * A new studio page on the suite's host with `path` given to its file input (the caller waits for
 * what it expects: the motion's name, or an error); `blockWorker` makes the motion-reader worker fail to load.
 */
export async function openFileInStudio(suite: SuiteHost, path: string, opts: { blockWorker?: boolean } = {}): Promise<OpenedFile> {
  const { context, page, errors } = await newStudioPage(suite.browser);
  if (opts.blockWorker) await context.route(/motionFileWorker[^/]*\.js$/, (route) => route.abort());
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(suite.host.url);
  await waitForStudio(page);
  await page.setInputFiles('#open-file-input', path);
  return { context, page, errors, workers, close: () => context.close() };
}

export interface MotionFolder {
  /** The temporary folder (real path: the page compares the paths it is given). */
  readonly work: string;
  /** work/motions, holding the copies. */
  readonly folder: string;
  /** Deletes work and everything in it. */
  remove(): void;
}

/**
 * work/motions in a new temporary folder with copies of `files` ({ 'mocap/a.bvh': source path }),
 * writable (the fixtures are read-only, and the tests save and export beside them).
 */
export function makeMotionFolder(prefix: string, files: Record<string, string>): MotionFolder {
  const work = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const folder = join(work, 'motions');
  mkdirSync(folder);
  for (const [name, from] of Object.entries(files)) {
    const to = join(folder, name);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    chmodSync(to, 0o644);
  }
  return { work, folder, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** makeMotionFolder for the enclosing describe: made before its tests, removed after them. */
export function useMotionFolder(prefix: string, files: Record<string, string>): MotionFolder {
  let work: MotionFolder | undefined;
  beforeAll(() => {
    work = makeMotionFolder(prefix, files);
  });
  afterAll(() => work?.remove());
  const made = (): MotionFolder => {
    if (!work) throw new Error('useMotionFolder: the folder is made in beforeAll');
    return work;
  };
  return {
    get work() {
      return made().work;
    },
    get folder() {
      return made().folder;
    },
    remove: () => made().remove(),
  };
}

/** A page of `width` × `height` on the suite's host with `folder` open in the library (close its context after). */
export async function openFolderPage(suite: SuiteHost, folder: string, width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  try {
    await page.goto(suite.host.url);
    await waitForStudio(page);
    await openFolder(page, folder);
  } catch (e) {
    await context.close();
    throw e;
  }
  return { context, page };
}

/** One paused studio page (openStudio: a host and a Chromium of its own) for the enclosing describe. */
export function useStudio(): { readonly page: StudioSession['page']; readonly session: StudioSession } {
  let session: StudioSession | undefined;
  beforeAll(async () => {
    session = await openStudio();
    await hook(session.page, 'setPlaying', false);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });
  return {
    get session() {
      if (!session) throw new Error('useStudio: the studio is opened in beforeAll');
      return session;
    },
    get page() {
      return this.session.page;
    },
  };
}

/** The two avatars the pose, IK, expression and dope-sheet suites run on: a VRM 1.0 and a VRM 0.x from the fixtures. */
export const TWO_AVATARS: readonly (readonly [folder: string, file: string, meta: '0' | '1'])[] = [
  ['vrm1', 'debug_robot.vrm', '1'],
  ['vrm0', 'cryptovoxels.vrm', '0'],
];

/** "VRM 1.0" / "VRM 0.x", for test names. */
export const vrmVersionName = (meta: '0' | '1'): string => (meta === '0' ? 'VRM 0.x' : 'VRM 1.0');

/** Opens a fixture avatar through the page's file input and waits until it is the avatar on screen, of the VRM version named. */
export async function openAvatarFile(page: StudioSession['page'], [folder, file, meta]: readonly [string, string, '0' | '1']): Promise<void> {
  await page.setInputFiles('#open-file-input', fixturePath(folder, file));
  await waitForState(page, 'avatarName', file);
  const version = await page.evaluate(() => (window as unknown as { __studio: { state(): { metaVersion: string | null } } }).__studio.state().metaVersion);
  if (version !== meta) throw new Error(`${file}: expected VRM meta version ${meta}, the studio shows ${version}`);
}
