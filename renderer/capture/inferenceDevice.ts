/**
 * Where MediaPipe's models run their inference: on WebGL (MediaPipe's default) or on the CPU (its
 * wasm's XNNPACK, `useCpuInference`). Where WebGL is drawn in software (SwiftShader, llvmpipe: no GPU,
 * or a blocked one) the GPU path is that software renderer doing a GPU's work, and the CPU path is far
 * faster: full pose model 98 against 942 CPU ms per frame in headless Chromium on this project's
 * 2-core machine (bench/capture.bench.ts). With a real GPU the default stays, as MediaPipe chose it.
 */
let cached: boolean | null = null;

/** True when the page's WebGL is a software renderer, or there is none. */
export function softwareWebGl(): boolean {
  if (cached !== null) return cached;
  const gl = document.createElement('canvas').getContext('webgl');
  if (!gl) return (cached = true);
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  cached = /swiftshader|llvmpipe|softpipe|software/i.test(name);
  return cached;
}

/** The option every MediaPipe solution takes for it. */
export const inferenceOptions = (): { useCpuInference: boolean } => ({ useCpuInference: softwareWebGl() });
