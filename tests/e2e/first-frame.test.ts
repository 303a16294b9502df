/**
 * The first end-to-end check: the browser host serves the studio, Chromium opens it and the page
 * draws the generated mannequin (pixels read back from the WebGL canvas); and what the page fetched
 * before that frame holds no converter, exporter, decoder or bedroom code (they load on demand).
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser } from '../../testkit/browser';
import { startHost } from '../../testkit/host';
import { CATALOGUE } from '../../shared/i18n/catalogue';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { makeWalkCycle } from '../../shared/assets/walkCycle';
import { writeVrma } from '../../shared/vrma/write';
import { hook, openStudio, screenshot, state, waitForStudio } from '../../testkit/studioHarness';

describe.skipIf(!HAS_CHROMIUM)(`first frame${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('draws the walking mannequin in the browser host', async () => {
    const s = await openStudio();
    try {
      const st = await state(s.page);
      expect(st.avatarName).toBe('Mannequin');
      expect(st.metaVersion).toBe('1');
      // The default motion is the generated walk cycle, at least 2 s, playing.
      expect(st.duration).toBeGreaterThanOrEqual(2);
      expect(st.playing).toBe(true);

      // Silhouette: pixels that change when the avatar is hidden (markers and gizmos hidden too).
      const share = await hook<number>(s.page, 'silhouetteShare');
      expect(share).toBeGreaterThan(0.02);
      expect(share).toBeLessThan(0.6);

      // The frame actually on screen is not blank: the light mannequin stands out of the dark background.
      const px = await hook<{ share: number; width: number; height: number }>(s.page, 'viewportPixelStats');
      expect(px.width).toBeGreaterThan(400);
      expect(px.share).toBeGreaterThan(0.01);
      await screenshot(s.page, 'first-frame');
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("draws the mannequin and plays the walk from the build's files, byte for byte the generators', fetched from the page's start (issue 30)", async () => {
    const s = await openStudio();
    try {
      const fetched = await s.page.evaluate(async () => {
        const at = (window as unknown as { __studio: { firstAvatarFrameAt(): number } }).__studio.firstAvatarFrameAt();
        const entry = performance.getEntriesByType('resource').find((e) => /\/assets\/mannequin-[^/]*\.vrm$/.test(e.name));
        if (!entry) return null;
        const bytes = new Uint8Array(await (await fetch(entry.name)).arrayBuffer());
        return { startedAt: entry.startTime, firstFrameAt: at, bytes: Array.from(bytes) };
      });
      expect(fetched, 'a mannequin-*.vrm fetched by the page').not.toBeNull();
      // Preloaded by index.html: asked for with the scripts, long before the frame.
      expect(fetched!.startedAt).toBeLessThan(fetched!.firstFrameAt);
      const generated = makeMannequinVrm({ version: '1.0' });
      expect(fetched!.bytes.length).toBe(generated.length);
      expect(Buffer.compare(Buffer.from(fetched!.bytes), Buffer.from(generated))).toBe(0);
      expect((await state(s.page)).avatarName).toBe('Mannequin');
      // The walk: its keys from the build's file, the Motion built in the page; written, it is the generator's walk.
      const walkFile = await s.page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/assets\/walk-cycle-[^/]*\.bin$/.test(e.name)));
      expect(walkFile, 'a walk-cycle-*.bin fetched by the page').toBe(true);
      const walk = Buffer.from(await hook<string>(s.page, 'motionBytes'), 'base64');
      expect(Buffer.compare(walk, Buffer.from(writeVrma(makeWalkCycle())))).toBe(0);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  // Code the first frame does not need, each by a name the build keeps (function and class names
  // survive it; checked against the lazy chunks when this was written).
  const ON_DEMAND: Record<string, string> = {
    'the VMD exporter': 'function writeVmd(',
    'the BVH exporter': 'function writeBvh(',
    'the glTF exporter': 'function writeGlb(',
    'the FBX exporter': 'function writeFbx(',
    'the MMD converter': 'function parseVmd(',
    'the MMD model reader': 'function parsePmxBones(',
    'the FBX reader': 'function parseFbx(',
    'the BVH reader': 'function parseBvh(',
    // Not the motion readers' meshopt decoder (shared/gltf/meshopt.ts): the page's synchronous readers
    // need it started on import. The avatar loader's copy (three.js) is on demand like Draco and KTX2.
    'the Draco decoder': 'DracoDecoderModule',
    'the KTX2 decoder': 'class KTX2Loader',
    'the bedroom': 'function mountBedroom(',
    // Capture (issue 29): only its Capture panel's controls load with the page.
    'the video capture': 'function detectFrames(',
    'the webcam recorder': 'function recordWebcam(',
    'the hands and face models': 'function detectDetails(',
  };

  it('fetches no converter, exporter, decoder or bedroom before the first frame', async () => {
    const s = await openStudio();
    try {
      const found = await s.page.evaluate(async (markers) => {
        const at = (window as unknown as { __studio: { firstAvatarFrameAt(): number } }).__studio.firstAvatarFrameAt();
        // Scripts of the page's own realm (workers run off its thread and are started later).
        const urls = performance.getEntriesByType('resource').filter((e) => e.startTime <= at && /\.js$/.test(e.name) && !/Worker-[^/]*\.js$/.test(e.name)).map((e) => e.name);
        const texts = await Promise.all(urls.map(async (u) => [u, await (await fetch(u)).text()] as const));
        const hits = Object.entries(markers).flatMap(([what, marker]) => texts.filter(([, text]) => text.includes(marker)).map(([u]) => `${what} in ${u.replace(/.*\//, '')}`));
        return { urls: urls.length, bytes: texts.reduce((n, [, t]) => n + t.length, 0), hits };
      }, ON_DEMAND);
      expect(found.urls).toBeGreaterThan(1); // the entry and its chunks were seen
      expect(found.hits).toEqual([]);
      // The markers are real: every one of them is in some chunk the build made.
      const all = await s.page.evaluate(async (markers) => {
        const seen = new Set<string>();
        const load = async (u: string) => (await fetch(u)).text();
        const entry = await load(document.querySelector<HTMLScriptElement>('script[type=module]')!.src);
        // Every chunk name the entry (or a chunk it names) mentions, followed once.
        const names = new Set<string>();
        const queue = [entry];
        while (queue.length) {
          const text = queue.shift()!;
          for (const m of text.matchAll(/["'`(/]([\w.-]+-[\w-]{8}\.js)/g)) {
            if (names.has(m[1])) continue;
            names.add(m[1]);
            queue.push(await load(`${location.origin}/assets/${m[1]}`));
          }
          for (const [what, marker] of Object.entries(markers)) if (text.includes(marker)) seen.add(what);
        }
        return [...seen].sort();
      }, ON_DEMAND);
      expect(all).toEqual(Object.keys(ON_DEMAND).sort());
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  // Japanese text only the Japanese catalogue has (the dope sheet's help, its first words).
  const JAPANESE = CATALOGUE.ja['timeline.dope.help'].slice(0, 16);

  it("loads only the page's language: in English no script holding the Japanese catalogue is fetched; in ja-JP it is, before the first frame, which is in Japanese", async () => {
    expect(JAPANESE).not.toBe(CATALOGUE.en['timeline.dope.help'].slice(0, 16));
    const host = await startHost();
    const browser = await launchBrowser();
    try {
      const scripts = async (locale: string) => {
        const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          await page.goto(host.url);
          await waitForStudio(page);
          return await page.evaluate(async ([marker, label]) => {
            const at = (window as unknown as { __studio: { firstAvatarFrameAt(): number } }).__studio.firstAvatarFrameAt();
            const entries = performance.getEntriesByType('resource').filter((e) => /\.js$/.test(e.name) && !/Worker-[^/]*\.js$/.test(e.name));
            const withMarker = await Promise.all(
              entries.map(async (e) => ((await (await fetch(e.name)).text()).includes(marker) ? [{ file: e.name.replace(/.*\//, ''), beforeFirstFrame: e.startTime <= at }] : [])),
            );
            return { lang: document.documentElement.lang, showsLabel: (document.body.textContent ?? '').includes(label), scripts: entries.length, japanese: withMarker.flat() };
          }, [JAPANESE, CATALOGUE[locale === 'ja-JP' ? 'ja' : 'en']['command.file.open.label']] as const);
        } finally {
          await context.close();
        }
      };
      const en = await scripts('en-US');
      expect(en.lang).toBe('en');
      expect(en.showsLabel).toBe(true);
      expect(en.scripts).toBeGreaterThan(1);
      expect(en.japanese).toEqual([]);
      const ja = await scripts('ja-JP');
      expect(ja.lang).toBe('ja');
      expect(ja.showsLabel, 'the Open… button is in Japanese').toBe(true);
      expect(ja.japanese.length, JSON.stringify(ja.japanese)).toBe(1);
      expect(ja.japanese[0].beforeFirstFrame).toBe(true);
    } finally {
      await browser.close();
      await host.stop();
    }
  });
});
