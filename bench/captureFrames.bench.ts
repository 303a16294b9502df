/**
 * A capture's frame path alone, without the studio around it: the studio's WebM decoder
 * (renderer/capture/decodedFrames.ts) and pose worker (renderer/capture/poseWorker.ts), bundled as
 * they are, in a bare page, on frames of a rendered 640×480 clip (the dance, 10 frames/s; or
 * CAPTURE_FRAMES_WEBM, e.g. the file captureMinute keeps with CAPTURE_MINUTE_WEBM). CPU per frame by
 * thread (from /proc): what a frame itself costs (the model's wasm in the worker, the worker's GL in
 * the GPU process's SwiftShader, the decoder, the page), against captureMinute's figure, which adds
 * what the studio's page and compositor cost per second of wall time. CAPTURE_FRAMES_WORKERS (1 or 2:
 * two stretches at once, as the studio reads a clip), CAPTURE_FRAMES_MODEL (0 lite, 1 full),
 * CAPTURE_FRAMES_COUNT (frames measured, 60); CAPTURE_FRAMES_GL=1 also counts the worker's WebGL calls
 * per frame (the calls are wrapped, so its CPU figures are not the plain ones).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { build } from 'esbuild';
import { HAS_CHROMIUM, launchBrowser } from '../testkit/browser';
import { renderVideo } from '../testkit/captureRender';
import { convertToMotion } from '../shared/formats/index';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { writeVrma } from '../shared/vrma/write';
import { normalizedPoseAt } from '../shared/vrma/fk';
import { threadSeconds, threadTicks } from './threadCpu';
import { printTable } from './timing';

const ORIGIN = 'http://frames.localhost';
const NM = join(__dirname, '..', 'node_modules', '@mediapipe', 'pose');
const COUNT = Number(process.env.CAPTURE_FRAMES_COUNT ?? 60);
const WORKERS = Number(process.env.CAPTURE_FRAMES_WORKERS ?? 2);
const MODEL = Number(process.env.CAPTURE_FRAMES_MODEL ?? 1);
const GL = process.env.CAPTURE_FRAMES_GL === '1';
const DANCE = join(__dirname, '..', '..', 'shared', 'fixtures', 'bvh', 'cmu_05_20-mb.bvh');

/** The dance as captureMinute draws it (testkit/danceShot's shot; that module needs vitest), `seconds` long. */
async function danceClip(browser: Awaited<ReturnType<typeof launchBrowser>>, seconds: number): Promise<Uint8Array> {
  const truth = convertToMotion('cmu_05_20-mb.bvh', readFileSync(DANCE));
  const h = normalizedPoseAt(truth, 0).hipsPosition!;
  const o = { vrm: makeMannequinVrm(), vrma: writeVrma(truth), start: 0, duration: seconds, fps: 10, width: 640, height: 480, fovDeg: 45, dress: true };
  return (await renderVideo(browser, { ...o, cameraPosition: [h[0], 1.0, h[2] + 2.8], cameraTarget: [h[0], 0.85, h[2]] })).webm;
}

/** Counts the worker's WebGL calls by name (texImage2D and readPixels with their sizes), sent on 'gl-counts'. */
const GL_COUNTER = `(() => {
  const counts = {};
  const getContext = OffscreenCanvas.prototype.getContext;
  OffscreenCanvas.prototype.getContext = function (type, o) {
    const gl = getContext.call(this, type, o);
    if (!gl || gl.counted || !/webgl/.test(type)) return gl;
    gl.counted = true;
    for (const k of Object.getOwnPropertyNames(Object.getPrototypeOf(gl))) {
      const f = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(gl), k).value;
      if (typeof f !== 'function') continue;
      gl[k] = function (...a) {
        const key = k === 'texImage2D' ? (a.length > 6 ? k + ' ' + a[3] + 'x' + a[4] : k + ' ' + (a[5] && a[5].constructor.name)) : k === 'readPixels' ? k + ' ' + a[2] + 'x' + a[3] : k;
        counts[key] = (counts[key] || 0) + 1;
        return f.apply(gl, a);
      };
    }
    return gl;
  };
  self.addEventListener('message', (e) => {
    if (e.data !== 'gl-counts') return;
    e.stopImmediatePropagation();
    postMessage({ counts: { ...counts } });
    for (const k in counts) delete counts[k];
  });
})();
`;

async function bundle(file: string, globalName?: string): Promise<string> {
  const out = await build({ entryPoints: [join(__dirname, '..', 'renderer', 'capture', file)], bundle: true, format: 'iife', globalName, write: false });
  return out.outputFiles[0].text;
}

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM || (!process.env.CAPTURE_FRAMES_WEBM && !existsSync(DANCE))) {
    console.log('captureFrames: Chromium or the fixtures missing; skipped');
    return;
  }
  const decoder = await bundle('decodedFrames.ts', 'decoded');
  const worker = (GL ? GL_COUNTER : '') + (await bundle('poseWorker.ts'));
  const browser = await launchBrowser();
  try {
    const kept = process.env.CAPTURE_FRAMES_WEBM;
    const webm = kept && existsSync(kept) ? readFileSync(kept) : await danceClip(browser, Math.ceil(COUNT / 10) + 1);
    const page = await (await browser.newContext()).newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/decoded.js') return route.fulfill({ body: decoder, contentType: 'text/javascript' });
      if (path === '/worker.js') return route.fulfill({ body: worker, contentType: 'text/javascript' });
      if (path === '/clip.webm') return route.fulfill({ body: Buffer.from(webm), contentType: 'video/webm' });
      if (path.startsWith('/pose/') && !path.includes('..')) {
        const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
        return route.fulfill({ body: readFileSync(join(NM, path.slice(6))), contentType: type });
      }
      return route.fulfill({ body: '<!doctype html><script src="/decoded.js"></script>', contentType: 'text/html' });
    });
    // A .localhost origin is a secure context (WebCodecs needs one); the router answers it.
    await page.goto(`${ORIGIN}/`);
    // The workers started and warmed on two frames each (model loading is not a frame's cost).
    await page.evaluate(`(async () => {
      const names = ['pose_solution_simd_wasm_bin.js', 'pose_solution_simd_wasm_bin.wasm', 'pose_solution_wasm_bin.js', 'pose_solution_wasm_bin.wasm',
        'pose_solution_packed_assets_loader.js', 'pose_solution_packed_assets.data', 'pose_web.binarypb', 'pose_landmark_lite.tflite', 'pose_landmark_full.tflite'];
      const files = Object.fromEntries(names.map((n) => [n, new URL('/pose/' + n, location.href).href]));
      const bytes = new Uint8Array(await (await fetch('/clip.webm')).arrayBuffer());
      window.clip = await decoded.decodableVideo(bytes);
      if (!window.clip) throw new Error('the clip is not a WebM the decoder reads');
      window.call = (w, message, transfer = []) => new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage(message, transfer); });
      window.workers = Array.from({ length: ${WORKERS} }, () => new Worker('/worker.js'));
      const options = { modelComplexity: ${MODEL}, smoothLandmarks: false, enableSegmentation: false, selfieMode: false, useCpuInference: true };
      for (const w of workers) {
        const r = await call(w, { id: 1, kind: 'init', script: new URL('/pose/pose.js', location.href).href, files, options });
        if (r.kind !== 'ready') throw new Error(r.message || r.kind);
        const s = decoded.decodeStretch(clip, [0, 0.1], 0, 2);
        for (let i = 0; i < 2; i++) { const b = await s.next(); await call(w, { id: 2, kind: 'frame', image: b, stamp: 1 + i }, [b]); }
        s.close();
        ${GL ? "await call(w, 'gl-counts');" : ''}
      }
    })()`);
    const load = loadavg()[0];
    const t0 = threadTicks(process.pid);
    const w0 = performance.now();
    const out = (await page.evaluate(`(async () => {
      const n = ${COUNT}, times = Array.from({ length: n }, (_, i) => 1 + i / 10);
      const parts = workers.map((_, k) => [Math.floor((k * n) / workers.length), Math.floor(((k + 1) * n) / workers.length)]);
      let found = 0;
      await Promise.all(parts.map(async ([a, b], k) => {
        const s = decoded.decodeStretch(clip, times, a, b);
        for (let i = a; i < b; i++) {
          const bitmap = await s.next();
          const r = await call(workers[k], { id: 10 + i, kind: 'frame', image: bitmap, stamp: 1000 + i * 100 }, [bitmap]);
          if (r.kind === 'pose') found++;
        }
        s.close();
      }));
      const counts = ${GL ? "(await call(workers[0], 'gl-counts')).counts" : 'null'};
      return { found, counts, perWorker: parts[0][1] - parts[0][0] };
    })()`)) as { found: number; counts: Record<string, number> | null; perWorker: number };
    const wall = performance.now() - w0;
    const threads = threadSeconds(t0, threadTicks(process.pid), 0.02);
    const cpu = threads.reduce((s, [, v]) => s + v, 0);
    const ms = (s: number) => ((s * 1000) / COUNT).toFixed(1);
    console.log(`captureFrames: CPU by thread (ms/frame): ${threads.map(([k, v]) => `${k} ${ms(v)}`).join('; ')}`);
    if (out.counts) {
      const calls = Object.entries(out.counts).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / out.perWorker).toFixed(1)}`);
      console.log(`captureFrames: one worker's WebGL calls per frame: ${calls.join(', ')}`);
    }
    printTable(
      `capture frames alone: ${COUNT} frames of a 640×480 WebM decoded and read by ${WORKERS} pose worker(s), model ${MODEL}${GL ? ' (GL calls counted)' : ''}`,
      ['frames', 'with a person', 'CPU ms/frame (browser tree)', 'wall ms/frame', 'load average at start'],
      [[String(COUNT), String(out.found), ms(cpu), (wall / COUNT).toFixed(1), load.toFixed(1)]],
    );
  } finally {
    await browser.close();
  }
}
