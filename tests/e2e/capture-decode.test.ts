/**
 * Issue 29, reading a video's frames in order: the capture decodes a WebM with its own demuxer
 * (shared/capture/webmDemux) and WebCodecs (renderer/capture/decodedFrames) instead of seeking a
 * <video> at each sample. Checked against Chromium's own demuxer and player, which share no code with
 * ours: at every sample time (10 frames/s) the frame the decoder gives is the picture the <video>
 * shows when sought there (greyscale at 160×120, mean absolute difference), cut in two stretches as
 * the two pose workers read it (the second from 10 frames before its start). Three real files: the
 * dance clip the capture tests render (VP8 from WebCodecs in the test's writer) and two MediaRecorder
 * recordings of a canvas (VP8 and VP9: a webcam recording's layout, live sizes, no cues, no duration).
 * Which stored frame the player showed is found by decoding every frame. The player's picture is read
 * once the frame callback says the sought frame is presented: at load 30, 'seeked' alone came before
 * the picture changed (6 of 31 samples of the rendered clip read the frame before; the studio's
 * seeking path reads its frames on 'seeked', which the decoder does not depend on).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser } from '../../testkit/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { danceShot, danceTruth } from '../../testkit/danceShot';
import { renderVideo } from '../../testkit/captureRender';
import { REPO_DIR } from '../../testkit/host';
import { LEAD_IN } from '../../shared/capture/stretches';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : !HAS_FIXTURES ? NO_FIXTURES_REASON : '';
const ORIGIN = 'http://decode.localhost';
const FPS = 10;
/** Mean absolute greyscale difference (0–255) at which two pictures are the same decoded frame. */
const SAME = 1.5;

interface Compared {
  codec: string;
  frames: number;
  samples: number;
  /** Per sample: the difference to the <video>'s picture there, and the smallest to its pictures one sample before and after. */
  same: number[];
  neighbour: number[];
  /** Per sample: the stored frame (presentation order) the <video> showed, and the one the stretches gave. */
  nearest: number[];
  shownAt: number[];
  starts: number[];
}

async function decodePage(page: Page): Promise<void> {
  const bundle = await build({
    entryPoints: [join(REPO_DIR, 'renderer', 'capture', 'decodedFrames.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'decoded',
    write: false,
  });
  const js = bundle.outputFiles[0].text;
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/decoded.js') return route.fulfill({ body: js, contentType: 'text/javascript' });
    return route.fulfill({ body: '<!doctype html><script src="/decoded.js"></script>', contentType: 'text/html' });
  });
  // A .localhost origin is a secure context (WebCodecs needs one); the router answers it.
  await page.goto(`${ORIGIN}/`);
}

/** The decoder's frames against the <video>'s, in the page. */
function compare(page: Page, b64: string, mime: string): Promise<Compared | string> {
  return page.evaluate(async ({ b64, mime, fps, lead }) => {
    const lib = (window as unknown as { decoded: typeof import('../../renderer/capture/decodedFrames') }).decoded;
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const d = await lib.decodableVideo(bytes);
    if (!d) return 'the file was not decodable';
    const video = document.createElement('video');
    video.muted = true;
    video.src = URL.createObjectURL(new Blob([bytes], { type: mime }));
    await new Promise((r) => (video.onloadeddata = r));
    // On the page (a few pixels), so that a sought frame is presented: at load 30, 'seeked' alone came before
    // the picture changed (6 of 31 samples read the frame before). The frame callback says it is shown.
    Object.assign(video.style, { position: 'fixed', left: '0', top: '0', width: '4px', height: '3px' });
    document.body.appendChild(video);
    const seek = async (t: number) => {
      const shownNow = new Promise<void>((r) => video.requestVideoFrameCallback(() => r()));
      await new Promise<void>((r) => ((video.onseeked = () => r()), (video.currentTime = t)));
      await Promise.race([shownNow, new Promise((r) => setTimeout(r, 3000))]);
    };
    if (video.duration === Infinity) {
      await new Promise<void>((r) => ((video.ondurationchange = () => video.duration !== Infinity && r()), (video.currentTime = 1e9)));
    }
    const n = Math.max(1, Math.ceil(video.duration * fps - 1e-6));
    const times = Array.from({ length: n }, (_, i) => i / fps);
    const g = new OffscreenCanvas(160, 120).getContext('2d', { willReadFrequently: true })!;
    const grey = (img: CanvasImageSource) => {
      g.drawImage(img, 0, 0, 160, 120);
      const p = g.getImageData(0, 0, 160, 120).data;
      const out = new Float32Array(160 * 120);
      for (let i = 0; i < out.length; i++) out[i] = 0.299 * p[4 * i] + 0.587 * p[4 * i + 1] + 0.114 * p[4 * i + 2];
      return out;
    };
    const shown: Float32Array[] = [];
    for (const t of times) {
      await seek(t);
      shown.push(grey(video));
    }
    const half = Math.ceil(n / 2);
    const decoded: Float32Array[] = new Array(n);
    for (const [from, start, end] of [[0, 0, half], [Math.max(0, half - lead), half, n]]) {
      const source = lib.decodeStretch(d, times, from, end);
      try {
        for (let i = from; i < end; i++) {
          const b = await source.next();
          if (i >= start) decoded[i] = grey(b);
          b.close();
        }
      } finally {
        source.close();
      }
    }
    const diff = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;
    const same: number[] = [], neighbour: number[] = [];
    for (let i = 0; i < n; i++) {
      same.push(diff(decoded[i], shown[i]));
      neighbour.push(Math.min(...[i - 1, i + 1].filter((j) => j >= 0 && j < n).map((j) => diff(decoded[i], shown[j]))));
    }
    // Every stored frame decoded, in presentation order: which one the player showed at each sample, and which the stretches gave.
    const all: Float32Array[] = [];
    const every = lib.decodeStretch(d, d.starts, 0, d.starts.length);
    for (let j = 0; j < d.starts.length; j++) {
      const b = await every.next();
      all.push(grey(b));
      b.close();
    }
    every.close();
    const which = (a: Float32Array) => all.reduce((k, b, j) => (diff(a, b) < diff(a, all[k]) ? j : k), 0);
    const nearest = shown.map(which);
    const shownAt = decoded.map(which);
    return { codec: d.video.track.codec, frames: d.video.frames.length, samples: n, same, neighbour, nearest, shownAt, starts: [...d.starts] };
  }, { b64, mime, fps: FPS, lead: LEAD_IN });
}

/** A MediaRecorder recording of a canvas whose every frame differs (a moving bar and a changing shade), at about 30 frames/s. */
function record(page: Page, mimeType: string, seconds: number): Promise<string> {
  return page.evaluate(async ({ mimeType, seconds }) => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 320, height: 240 });
    const g = canvas.getContext('2d')!;
    const stream = canvas.captureStream(30);
    const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2e6 });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((r) => (recorder.onstop = r));
    const t0 = performance.now();
    const draw = () => {
      const t = (performance.now() - t0) / 1000;
      g.fillStyle = `rgb(${(t * 120) % 256}, 90, ${255 - ((t * 120) % 256)})`;
      g.fillRect(0, 0, 320, 240);
      g.fillStyle = '#fff';
      g.fillRect((t * 150) % 300, 0, 20, 240);
    };
    draw();
    recorder.start();
    await new Promise<void>((done) => {
      const tick = () => {
        draw();
        if (performance.now() - t0 < seconds * 1000) setTimeout(tick, 1000 / 30);
        else done();
      };
      tick();
    });
    recorder.stop();
    await stopped;
    const b = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(s);
  }, { mimeType, seconds });
}

/**
 * exact: every sample is the stored frame the player shows (the rendered clip, whose frames start at
 * the sample times). A recording's frames start at wall-clock times, irregular under load, and there
 * the player sought to a sample at times shows the frame before ours, though ours started up to 24 ms
 * before the sample (seen at load 30; its own estimate of when a frame ends, not the file's times):
 * the player's frame must then be the one just before ours, and at least half the samples agree.
 */
function check(name: string, r: Compared | string, codec: RegExp, exact: boolean): void {
  if (typeof r === 'string') throw new Error(`${name}: ${r}`);
  const agree = r.nearest.map((p, i) => p === r.shownAt[i]);
  const same = r.same.filter((_, i) => agree[i]);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const off = r.nearest.flatMap((p, i) => (agree[i] ? [] : [`sample ${(i / FPS).toFixed(3)}: ours ${r.starts[r.shownAt[i]].toFixed(3)}, player ${r.starts[p].toFixed(3)}`]));
  console.log(
    `${name}: ${r.codec}, ${r.frames} frames stored, ${r.samples} samples; the stored frame the player shows: ${agree.filter(Boolean).length} agree${
      off.length ? ` (${off.join('; ')})` : ''
    }; where they agree the pictures differ by at most ${Math.max(...same).toFixed(2)} (a sample away: median ${median(r.neighbour).toFixed(2)}, min ${Math.min(...r.neighbour).toFixed(2)})`,
  );
  expect(r.codec).toMatch(codec);
  if (exact) expect(off).toEqual([]);
  else {
    expect(agree.filter(Boolean).length).toBeGreaterThanOrEqual(Math.ceil(r.samples / 2));
    for (const [i, p] of r.nearest.entries()) if (!agree[i]) expect(p, off.join('; ')).toBe(r.shownAt[i] - 1);
  }
  // The same stored frame is the same picture: the decoder's colours are the player's (the comparison bites: a sample away differs more).
  expect(Math.max(...same)).toBeLessThan(SAME);
  for (const [i, v] of r.neighbour.entries()) if (exact) expect(v, `sample ${i}`).toBeGreaterThan(r.same[i]);
}

describe.skipIf(!!SKIP)(`a WebM decoded in order against Chromium's player${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  it('the rendered dance clip (VP8, the test writer) and MediaRecorder recordings (VP8, VP9): every sample is the frame the <video> shows there', async () => {
    const browser = await launchBrowser();
    try {
      const { webm } = await renderVideo(browser, danceShot(danceTruth(), 3, FPS));
      const context = await browser.newContext();
      const page = await context.newPage();
      await decodePage(page);
      check('dance.webm', await compare(page, Buffer.from(webm).toString('base64'), 'video/webm'), /^vp8$/, true);
      for (const [mime, codec] of [['video/webm;codecs=vp8', /^vp8$/], ['video/webm;codecs=vp9', /^vp09\./]] as const) {
        const clip = await record(page, mime, 2);
        check(`MediaRecorder ${mime}`, await compare(page, clip, 'video/webm'), codec, false);
      }
      await context.close();
    } finally {
      await browser.close();
    }
  }, 300_000);
});
