/**
 * Content Security Policy of the studio page, the same in Electron (custom protocol) and the browser
 * host: only our own scripts, no eval, no plugins, no framing; blob: and data: allowed for images and
 * fetches because GLTFLoader decodes embedded textures through them. 'wasm-unsafe-eval' lets the
 * page (and its blob: workers) compile WebAssembly, and nothing else: the shipped Draco, Basis and
 * meshopt decoders of compressed avatars are wasm (renderer/avatar/decoders.ts); JavaScript eval stays off.
 */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  // No 'unsafe-inline': the UI styles only through styles.css and the CSSOM (element.style), which CSP allows.
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self' blob: data:",
  "worker-src 'self' blob:",
  "font-src 'self' data:",
  "media-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The Basis texture transcoder's worker (built by electron.vite.config.ts), the one file served with BASIS_WORKER_CSP. */
export const BASIS_WORKER_PATH = '/decoders/basis_worker.js';

/**
 * Policy of the Basis transcoder's worker alone: its Emscripten glue (three.js's basis_transcoder.js)
 * builds functions from strings, so the worker may evaluate code; it may load nothing (it gets the
 * wasm bytes by message), has no DOM, and runs only our own shipped file. A dedicated worker loaded
 * from a URL takes the policy of its own response, so the page keeps STUDIO_CSP unchanged.
 */
export const BASIS_WORKER_CSP = ["default-src 'none'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'"].join('; ');

/** The CSP header for a file of the built renderer, by its path from the root ("/index.html"). */
export function cspFor(path: string): string {
  return path === BASIS_WORKER_PATH ? BASIS_WORKER_CSP : STUDIO_CSP;
}

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.vrm': 'application/octet-stream',
  '.vrma': 'application/octet-stream',
  '.glb': 'model/gltf-binary',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
