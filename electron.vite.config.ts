import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

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
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
