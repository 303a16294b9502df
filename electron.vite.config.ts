import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

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
    plugins: [basisWorker()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
