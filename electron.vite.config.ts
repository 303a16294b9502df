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

/**
 * @mediapipe/face_mesh's wasm glue (an older emscripten than pose's and hands') names embind's
 * functions with `new Function`, which the page's policy (no eval) refuses. Newer emscripten names
 * them through an object literal's computed key, which needs no eval: the same change, made when the
 * build copies the file (the build fails if the glue no longer has that code).
 */
function faceMeshGlue(): Plugin {
  const file = /@mediapipe[\\/]face_mesh[\\/](face_mesh_solution_(?:simd_)?wasm_bin\.js)\?url$/;
  const evalNaming = /function createNamedFunction\(name,body\)\{name=makeLegalFunctionName\(name\);return new Function\([^]*?\)\(body\)\}/;
  const literalNaming = 'function createNamedFunction(name,body){name=makeLegalFunctionName(name);return{[name]:function(){return body.apply(this,arguments)}}[name]}';
  return {
    name: 'vrma-studio-face-mesh-glue',
    enforce: 'pre',
    apply: 'build',
    load(id) {
      const m = file.exec(id);
      if (!m) return null;
      const source = readFileSync(id.replace(/\?url$/, ''), 'utf8');
      if (!evalNaming.test(source)) throw new Error(`${m[1]}: embind's eval naming not found; check the face_mesh glue again`);
      const ref = this.emitFile({ type: 'asset', name: m[1], source: source.replace(evalNaming, literalNaming) });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
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
    plugins: [basisWorker(), faceMeshGlue()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
