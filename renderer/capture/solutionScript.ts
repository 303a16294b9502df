/**
 * MediaPipe's legacy "solutions" (pose, hands, face_mesh) as the studio ships them: each is a classic
 * script that defines its class on the window, plus wasm, packed assets and models that vite copies
 * into the build (`?url` imports in each model's file) and that the solution asks for by file name
 * through locateFile, so nothing is downloaded. One loader for the three: the page's policy allows our
 * own scripts and WebAssembly.
 */
const scripts = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let p = scripts.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const el = document.createElement('script');
      el.src = src;
      el.onload = () => resolve();
      el.onerror = () => {
        scripts.delete(src);
        reject(new Error(`the capture model's script ${src} did not load`));
      };
      document.head.appendChild(el);
    });
    scripts.set(src, p);
  }
  return p;
}

/** The solution `globalName` (Pose, Hands, FaceMesh) made from its script, its files handed over by name. */
export async function createSolution<T>(script: string, globalName: string, files: Readonly<Record<string, string>>): Promise<T> {
  await loadScript(script);
  const Solution = (window as unknown as Record<string, new(c: { locateFile(f: string): string }) => T>)[globalName];
  if (!Solution) throw new Error(`the capture model's script did not define ${globalName}`);
  return new Solution({ locateFile: (f) => files[f] ?? f });
}
