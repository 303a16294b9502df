/**
 * Where one page load's time goes before the first drawn frame of the walking mannequin (issue 30):
 * one fresh page of the built browser host under Chromium's tracing, then
 *  - each script's fetch (Resource Timing: start, end) and its compile and evaluation on the main thread;
 *  - the main thread's work by kind (trace events: wall and thread time), and its idle gaps;
 *  - the WebGL programs linked before the frame, and how long the page blocked on the GPU process for
 *    their status (wrapped WebGL calls: with no KHR_parallel_shader_compile the first status read waits
 *    for the compile and link);
 *  - the other fetches (avatar, settings, library, session) with their start and end.
 *   npx electron-vite build && [BENCH_PROFILE=dir] [BENCH_OUT=other/out] node --import tsx bench/firstFrameTrace.ts [trace.json]
 * A tool to read, not a bench: one load, nothing compared with a baseline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, newStudioPage } from '../testkit/browser';
import { REPO_DIR, startHost } from '../testkit/host';
import { studioCall, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { printTable } from './timing';
import { summarize } from './profileSummary';

interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string; readonly data?: Record<string, unknown>; readonly fileName?: string; readonly url?: string };
}

/** Wraps the WebGL calls that wait on the GPU process (run in the page before its scripts). */
function glProbe(): void {
  const stats = {
    programs: 0,
    shaders: 0,
    waits: {} as Record<string, { n: number; ms: number }>,
    firstLinkAt: -1,
    lastWaitAt: -1,
    perProgram: [] as { name: string; linkAt: number; blockedMs: number }[],
  };
  // Each program by its three.js SHADER_NAME (the material's type and name), the time its link was
  // asked for and the time the page then blocked on its status and logs.
  const shaderName = new WeakMap<object, string>();
  const programOf = new WeakMap<object, { name: string; linkAt: number; blockedMs: number }>();
  const shaderProgram = new WeakMap<object, { name: string; linkAt: number; blockedMs: number }>();
  (window as unknown as { __glProbe: typeof stats }).__glProbe = stats;
  // A mark the trace also holds: it ties the trace's clock to performance.now() and names the page's main thread.
  performance.mark('first-frame-trace-origin');
  for (const proto of [WebGL2RenderingContext.prototype, WebGLRenderingContext.prototype] as unknown as Record<string, (...a: unknown[]) => unknown>[]) {
    const wrap = (name: string, before?: () => void) => {
      const f = proto[name];
      proto[name] = function(this: unknown, ...a: unknown[]) {
        before?.();
        const t = performance.now();
        const r = f.apply(this, a);
        const took = performance.now() - t;
        const w = (stats.waits[name] ??= { n: 0, ms: 0 });
        w.n++;
        w.ms += took;
        const p = a[0] && typeof a[0] === 'object' ? (programOf.get(a[0]) ?? shaderProgram.get(a[0])) : undefined;
        if (p && /^get(Program|Shader)/.test(name)) p.blockedMs += took;
        if (name === 'shaderSource')
          shaderName.set(
            a[0] as object,
            /^#define SHADER_TYPE (.*)$/m.exec(String(a[1]))?.[1] + ' ' + (/^#define SHADER_NAME (.*)$/m.exec(String(a[1]))?.[1] ?? '') + ' ' + String(a[1]).length + 'ch',
          );
        if (name === 'attachShader') {
          const prog = a[0] as object;
          let q = programOf.get(prog);
          if (!q) {
            q = { name: shaderName.get(a[1] as object) ?? '?', linkAt: -1, blockedMs: 0 };
            programOf.set(prog, q);
            stats.perProgram.push(q);
          }
          shaderProgram.set(a[1] as object, q);
        }
        if (name === 'linkProgram') {
          const q = programOf.get(a[0] as object);
          if (q) q.linkAt = t;
        }
        stats.lastWaitAt = performance.now();
        return r;
      };
    };
    wrap('linkProgram', () => {
      stats.programs++;
      if (stats.firstLinkAt < 0) stats.firstLinkAt = performance.now();
    });
    wrap('compileShader', () => stats.shaders++);
    for (
      const n of [
        'getProgramParameter',
        'getShaderParameter',
        'getProgramInfoLog',
        'getShaderInfoLog',
        'getError',
        'getShaderPrecisionFormat',
        'getParameter',
        'texImage2D',
        'bufferData',
        'readPixels',
        'shaderSource',
        'attachShader',
      ]
    )
      wrap(n);
  }
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.compile', 'blink.user_timing', 'loading', 'toplevel', 'gpu'];

async function main(): Promise<void> {
  const tracePath = process.argv[2] ?? join(REPO_DIR, 'out', 'firstFrame.trace.json');
  // BENCH_OUT=/path/to/out traces another build (its out/main/host.js serves its renderer).
  const host = await startHost(process.env.BENCH_OUT ? { hostScript: join(process.env.BENCH_OUT, 'main', 'host.js') } : {});
  const browser = await launchBrowser();
  try {
    // A warm-up load: the host's first read of each file, as the bench does.
    {
      const { context, page } = await newStudioPage(browser);
      await page.goto(host.url);
      await waitForFirstAvatarFrame(page, 5);
      await context.close();
    }
    const { context, page } = await newStudioPage(browser);
    // esbuild (tsx) names functions with __name(), which the page does not have.
    await page.addInitScript({ content: `var __name = (f) => f; (${glProbe.toString()})();` });
    await browser.startTracing(page, { categories: CATEGORIES });
    // With BENCH_PROFILE=dir, the same load under the sampling profiler too (100 µs), summarized below.
    const profileDir = process.env.BENCH_PROFILE;
    const cdp = profileDir ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await page.goto(host.url);
    await waitForFirstAvatarFrame(page, 5);
    if (cdp && profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, 'firstFrame.cpuprofile'), JSON.stringify(profile));
      console.log(`CPU profile of the load: ${join(profileDir, 'firstFrame.cpuprofile')}\n${summarize(profile as unknown as Parameters<typeof summarize>[0], 40)}`);
    }
    const firstFrameMs = await studioCall<number>(page, 'firstAvatarFrameAt');
    const resources = (await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        return { name: r.name.replace(/^https?:\/\/[^/]+/, ''), start: r.startTime, reqStart: r.requestStart, respStart: r.responseStart, end: r.responseEnd, bytes: r.encodedBodySize };
      })
    )) as { name: string; start: number; reqStart: number; respStart: number; end: number; bytes: number }[];
    const nav = (await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { resp: n.responseEnd, domInteractive: n.domInteractive, dcl: n.domContentLoadedEventEnd };
    })) as { resp: number; domInteractive: number; dcl: number };
    const gl = (await page.evaluate('window.__glProbe')) as PageFacts['gl'];
    const marks = (await page.evaluate(() => performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))) as [string, number][];
    const buffer = await browser.stopTracing();
    await context.close();
    writeFileSync(tracePath, buffer);
    report(JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }, { firstFrameMs, resources, nav, gl, marks });
    console.log(`\ntrace: ${tracePath} (open in chrome://tracing or DevTools' Performance panel)`);
  } finally {
    await browser.close();
    await host.stop();
  }
}

interface PageFacts {
  firstFrameMs: number;
  resources: { name: string; start: number; reqStart: number; respStart: number; end: number; bytes: number }[];
  nav: { resp: number; domInteractive: number; dcl: number };
  gl: {
    programs: number;
    shaders: number;
    waits: Record<string, { n: number; ms: number }>;
    firstLinkAt: number;
    lastWaitAt: number;
    perProgram: { name: string; linkAt: number; blockedMs: number }[];
  };
  marks: [string, number][];
}

const ms = (x: number) => x.toFixed(1);

function report(trace: { traceEvents: TraceEvent[] }, f: PageFacts): void {
  const ev = trace.traceEvents;
  const threadName = new Map<string, string>();
  for (const e of ev) if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const origin = ev.find((e) => e.name === 'first-frame-trace-origin');
  const originAt = f.marks.find(([n]) => n === 'first-frame-trace-origin')?.[1];
  if (!origin || originAt === undefined) throw new Error("the page's origin mark is not in the trace");
  const main = `${origin.pid}:${origin.tid}`;
  const t0 = origin.ts - originAt * 1000;
  const tEnd = t0 + f.firstFrameMs * 1000;
  const at = (e: TraceEvent) => (e.ts - t0) / 1000;
  const before = (e: TraceEvent) => e.ts >= t0 && e.ts <= tEnd;
  const onMain = ev.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && before(e));

  console.log(`first frame at ${ms(f.firstFrameMs)} ms after navigation start; html response end ${ms(f.nav.resp)}, domInteractive ${ms(f.nav.domInteractive)}, DOMContentLoaded end ${ms(f.nav.dcl)}`);
  console.log(`marks: ${f.marks.map(([n, t]) => `${n} ${ms(t)}`).join(', ') || 'none'}`);

  // Top-level tasks: their wall and thread time, and the gaps between them (the main thread waiting).
  const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts);
  let busyWall = 0, busyCpu = 0, last = t0;
  const long: string[][] = [];
  for (const t of tasks) {
    const end = Math.min(t.ts + (t.dur ?? 0), tEnd);
    if (end <= last) continue;
    busyWall += (end - Math.max(t.ts, last)) / 1000;
    busyCpu += (t.tdur ?? 0) / 1000;
    last = end;
    if ((t.dur ?? 0) > 15_000) long.push([ms(at(t)), ms((t.dur ?? 0) / 1000), ms((t.tdur ?? 0) / 1000)]);
  }
  console.log(`main thread: ${tasks.length} tasks, busy ${ms(busyWall)} ms of wall, ${ms(busyCpu)} ms of thread time; idle ${ms(f.firstFrameMs - busyWall)} ms`);
  printTable('Main-thread tasks over 15 ms (wall)', ['at ms', 'wall ms', 'thread ms'], long);

  // By kind: self-contained event names (nested ones overlap; read each row on its own).
  const kinds = new Map<string, { n: number; wall: number; cpu: number }>();
  for (const e of onMain) {
    if (/RunTask/.test(e.name)) continue;
    const k = kinds.get(e.name) ?? { n: 0, wall: 0, cpu: 0 };
    k.n++;
    k.wall += (e.dur ?? 0) / 1000;
    k.cpu += (e.tdur ?? 0) / 1000;
    kinds.set(e.name, k);
  }
  printTable(
    'Main-thread events by name (nested events overlap)',
    ['event', 'n', 'wall ms', 'thread ms'],
    [...kinds].sort((a, b) => b[1].wall - a[1].wall).slice(0, 30).map(([n, k]) => [n, String(k.n), ms(k.wall), ms(k.cpu)]),
  );

  // Scripts: fetch from Resource Timing; streamed parse on the renderer's worker threads and the
  // module compile on the main thread from the trace, by URL. Modules are evaluated as one graph
  // (v8.evaluateModule in the table above), so evaluation is not split by file here.
  const perUrl = new Map<string, { bgParse: number; compile: number }>();
  const pid = origin.pid;
  for (const e of ev) {
    if (e.pid !== pid || e.ph !== 'X' || !before(e)) continue;
    const kind = e.name === 'v8.parseOnBackground' ? 'bgParse' : e.name === 'v8.compileModule' && `${e.pid}:${e.tid}` === main ? 'compile' : null;
    const url = String(e.args?.data?.url ?? '').replace(/^https?:\/\/[^/]+/, '');
    if (!kind || !url) continue;
    const p = perUrl.get(url) ?? { bgParse: 0, compile: 0 };
    p[kind] += (e.tdur ?? 0) / 1000;
    perUrl.set(url, p);
  }
  const scripts = f.resources.filter((r) => r.start <= f.firstFrameMs && /\.js$/.test(r.name));
  printTable(
    'Scripts fetched before the first frame (parse and compile: thread ms)',
    ['file', 'kB', 'fetch start', 'response end', 'background parse', 'main compile'],
    scripts.sort((a, b) => a.start - b.start).map((r) => {
      const p = perUrl.get(r.name) ?? { bgParse: 0, compile: 0 };
      return [r.name.replace(/.*\//, ''), (r.bytes / 1024).toFixed(0), ms(r.start), ms(r.end), ms(p.bgParse), ms(p.compile)];
    }),
  );
  printTable(
    'Other fetches before the first frame',
    ['resource', 'kB', 'start', 'response start', 'end'],
    f.resources.filter((r) => r.start <= f.firstFrameMs && !/\.js$/.test(r.name)).sort((a, b) => a.start - b.start).map((
      r,
    ) => [r.name.slice(0, 70), (r.bytes / 1024).toFixed(0), ms(r.start), ms(r.respStart), ms(r.end)]),
  );
  const linked = f.gl.perProgram.filter((p) => p.linkAt >= 0 && p.linkAt <= f.firstFrameMs);
  printTable(
    `WebGL until the page was read (after the first frame): ${f.gl.programs} programs linked, ${f.gl.shaders} shaders compiled; ${linked.length} linked before the first frame, the first at ${
      ms(f.gl.firstLinkAt)
    } ms`,
    ['call', 'n', 'blocked ms'],
    Object.entries(f.gl.waits).sort((a, b) => b[1].ms - a[1].ms).map(([n, w]) => [n, String(w.n), ms(w.ms)]),
  );

  printTable('WebGL programs in link order', ['program (SHADER_NAME)', 'link asked at ms', 'blocked on status/logs ms'], linked.map((p) => [p.name, ms(p.linkAt), ms(p.blockedMs)]));

  // The GPU process's busiest work in the window (SwiftShader compiles and links there).
  const gpuThreads = [...threadName].filter(([, n]) => n === 'CrGpuMain').map(([k]) => k);
  const gpu = ev.filter((e) => gpuThreads.includes(`${e.pid}:${e.tid}`) && e.ph === 'X' && before(e));
  const gpuKinds = new Map<string, { n: number; wall: number }>();
  for (const e of gpu) {
    const k = gpuKinds.get(e.name) ?? { n: 0, wall: 0 };
    k.n++;
    k.wall += (e.dur ?? 0) / 1000;
    gpuKinds.set(e.name, k);
  }
  printTable('GPU main thread events by name', ['event', 'n', 'wall ms'], [...gpuKinds].sort((a, b) => b[1].wall - a[1].wall).slice(0, 15).map(([n, k]) => [n, String(k.n), ms(k.wall)]));
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
