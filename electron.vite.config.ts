import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { evalFreeEmbind } from './scripts/evalFreeEmbind';

/**
 * The Basis texture transcoder's worker as a file of the app (decoders/basis_worker.js), built
 * exactly as three.js's KTX2Loader builds its blob: worker (constants, basis_transcoder.js, the
 * worker body). Its glue evaluates strings as code, which the page's CSP forbids; a worker loaded
 * from the app's origin gets its own, narrower policy instead (main/services/contentSecurity.ts
 * BASIS_WORKER_CSP), and renderer/avatar/decoders.ts starts this file in place of the blob.
 */
async function basisWorkerSource(): Promise<string> {
  const { KTX2Loader } = (await import('three/examples/jsm/loaders/KTX2Loader.js')) as unknown as { KTX2Loader: Record<string, unknown> & { BasisWorker: () => void } };
  const fn = KTX2Loader.BasisWorker.toString();
  return [
    '/* constants */',
    'let _EngineFormat = ' + JSON.stringify(KTX2Loader.EngineFormat),
    'let _EngineType = ' + JSON.stringify(KTX2Loader.EngineType),
    'let _TranscoderFormat = ' + JSON.stringify(KTX2Loader.TranscoderFormat),
    'let _BasisFormat = ' + JSON.stringify(KTX2Loader.BasisFormat),
    '/* basis_transcoder.js */',
    readFileSync(resolve(__dirname, 'node_modules/three/examples/jsm/libs/basis/basis_transcoder.js'), 'utf8'),
    '/* worker */',
    fn.substring(fn.indexOf('{') + 1, fn.lastIndexOf('}')),
  ].join('\n');
}

function basisWorker(): Plugin {
  const fileName = 'decoders/basis_worker.js';
  return {
    name: 'vrma-studio-basis-worker',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: await basisWorkerSource() });
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if ((req.url ?? '').split('?')[0] !== `/${fileName}`) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.end(await basisWorkerSource());
      });
    },
  };
}

/**
 * The face model's wasm glue, served without code generation from strings (issue 29): the
 * `?url` imports of @mediapipe/face_mesh's two glue files (renderer/capture/detailModels.ts) get the
 * patched file (scripts/evalFreeEmbind.ts) as an asset of the build, so the face runs under the
 * page's own policy, in Electron and the browser host alike.
 */
function evalFreeFaceGlue(): Plugin {
  const GLUE = /[\\/]@mediapipe[\\/]face_mesh[\\/](face_mesh_solution_(?:simd_)?wasm_bin\.js)\?url$/;
  const DEV_PREFIX = '/@vrma-face-glue/';
  const patched = (path: string) => evalFreeEmbind(readFileSync(path, 'utf8'));
  const inPackage = (file: string) => resolve(__dirname, 'node_modules/@mediapipe/face_mesh', file);
  let serving = false;
  return {
    name: 'vrma-studio-eval-free-face-glue',
    enforce: 'pre',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    load(id) {
      const file = GLUE.exec(id)?.[1];
      if (!file) return null;
      if (serving) return `export default ${JSON.stringify(DEV_PREFIX + file)};`;
      const ref = this.emitFile({ type: 'asset', name: file, source: patched(id.slice(0, -'?url'.length)) });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        if (!path.startsWith(DEV_PREFIX) || !/^face_mesh_solution_(?:simd_)?wasm_bin\.js$/.test(path.slice(DEV_PREFIX.length))) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.end(patched(inPackage(path.slice(DEV_PREFIX.length))));
      });
    },
  };
}

/**
 * Each UI language as its own chunk (issue 30): shared/i18n/translate.ts reads its messages from
 * ./localeTables, which in the renderer's build is renderer/app/lazyLocaleTables.ts, and that imports
 * `virtual:vrma-i18n/<locale>`: the catalogue's combined table for that language, made here from the
 * same area files (shared/i18n/catalogue.ts) at build time. The English page's start chunk then holds
 * no Japanese text; main, the CLI, the tests and the dev server keep the whole catalogue.
 */
function i18nByLanguage(): Plugin {
  const PREFIX = 'virtual:vrma-i18n/';
  return {
    name: 'vrma-studio-i18n-by-language',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './localeTables' && importer && /[\\/]shared[\\/]i18n[\\/]translate\.ts$/.test(importer)) return resolve(__dirname, 'renderer/app/lazyLocaleTables.ts');
      if (source.startsWith(PREFIX)) return `\0${source}`;
      return null;
    },
    async load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const { CATALOGUE } = await import('./shared/i18n/catalogue');
      const table = CATALOGUE[id.slice(PREFIX.length + 1) as keyof typeof CATALOGUE];
      if (!table) throw new Error(`no messages for ${id.slice(PREFIX.length + 1)}`);
      return `export default ${JSON.stringify(table)};`;
    },
  };
}

/**
 * The built-in mannequin and the walk cycle's keys as files of the build (issue 30): renderer/app/core.ts
 * reads them through ./builtinFiles, which in the renderer's build is renderer/app/builtinFilesBuilt.ts,
 * fetching `virtual:vrma-builtin-files`'s URLs: the bytes shared/assets (mannequin.ts, walkCycle.ts with
 * loopTracksFile.ts) make, made here once instead of in every page before its first frame (75 ms of
 * its main thread). index.html preloads both, so they are fetched beside the scripts. The dev server
 * and the tests generate them in the page.
 */
function builtinFiles(): Plugin {
  const ID = 'virtual:vrma-builtin-files';
  const MANNEQUIN = 'mannequin.vrm';
  const WALK = 'walk-cycle.bin';
  return {
    name: 'vrma-studio-builtin-files',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './builtinFiles' && importer && /[\\/]renderer[\\/]app[\\/]core\.ts$/.test(importer)) return resolve(__dirname, 'renderer/app/builtinFilesBuilt.ts');
      if (source === ID) return `\0${ID}`;
      return null;
    },
    async load(id) {
      if (id !== `\0${ID}`) return null;
      const { makeMannequinVrm } = await import('./shared/assets/mannequin');
      const { walkCycleTracks } = await import('./shared/assets/walkCycle');
      const { writeLoopTracks } = await import('./shared/assets/loopTracksFile');
      const mannequin = this.emitFile({ type: 'asset', name: MANNEQUIN, source: makeMannequinVrm({ version: '1.0' }) });
      const walk = this.emitFile({ type: 'asset', name: WALK, source: writeLoopTracks(walkCycleTracks()) });
      return `export const MANNEQUIN_URL = import.meta.ROLLUP_FILE_URL_${mannequin};\nexport const WALK_TRACKS_URL = import.meta.ROLLUP_FILE_URL_${walk};`;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const tags = [MANNEQUIN, WALK].map((name) => {
          const file = Object.values(ctx.bundle ?? {}).find((a) => a.type === 'asset' && (a.names ?? []).includes(name));
          if (!file) throw new Error(`the built-in ${name} is not in the bundle`);
          return { tag: 'link', attrs: { rel: 'preload', as: 'fetch', crossorigin: true, href: `./${file.fileName}` }, injectTo: 'head' as const };
        });
        return { html, tags };
      },
    },
  };
}

/**
 * renderer/main.ts imports the studio's chunk dynamically, so the session and settings calls go out
 * while it loads; without a hint the browser would only start fetching it when main.ts runs. This
 * adds <link rel="modulepreload"> for that chunk and every chunk it imports statically, so they are
 * fetched from the start, beside the entry (issue 30: the first frame).
 */
function preloadStudioChunk(): Plugin {
  return {
    name: 'vrma-studio-preload-studio-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const studio = chunks.find((c) => c.type === 'chunk' && c.facadeModuleId?.replace(/\\/g, '/').endsWith('/renderer/shell/startStudio.ts'));
        if (!studio || studio.type !== 'chunk') throw new Error('the studio chunk (renderer/shell/startStudio.ts) is not in the bundle');
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          const c = bundle[file];
          if (c?.type === 'chunk') for (const f of c.imports) visit(f);
        };
        visit(studio.fileName);
        const already = new Set([...html.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1]));
        const links = [...files].filter((f) => !already.has(f)).map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const }));
        return { html, tags: links };
      },
    },
  };
}

// One output folder (out/): main-side entries (Electron main, browser host, CLI, batch worker),
// a single CommonJS preload (sandboxed preloads cannot load ESM or split chunks), and the renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/electron/index.ts'),
          host: resolve(__dirname, 'main/host/index.ts'),
          cli: resolve(__dirname, 'main/cli/index.ts'),
          convertWorker: resolve(__dirname, 'main/services/convertWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [basisWorker(), evalFreeFaceGlue(), i18nByLanguage(), builtinFiles(), preloadStudioChunk()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
