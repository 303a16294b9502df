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
