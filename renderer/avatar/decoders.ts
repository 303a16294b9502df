/**
 * Decoders for compressed avatars, registered on the one avatar GLTFLoader (loadAvatar.ts, used by
 * the studio and the bedroom): Draco meshes (KHR_draco_mesh_compression), meshopt buffers
 * (EXT_meshopt_compression) and KTX2/Basis textures (KHR_texture_basisu).
 *
 * Everything ships inside the app, nothing is fetched from the network: three.js's loaders name their
 * decoder files (examples/jsm/libs/draco, examples/jsm/libs/basis) with `new URL(file, import.meta.url)`,
 * which the build (Vite, electron.vite.config.ts) copies into out/renderer/assets/ and rewrites to
 * those copies, so they load from the page's own origin (app://studio in Electron, the loopback host
 * in a browser); a copy of our own beside them would only double them (1.9 MB). The meshopt decoder
 * is a module bundled with the page. The WebAssembly they compile is what the CSP's
 * 'wasm-unsafe-eval' allows (main/services/contentSecurity.ts); their workers start from blob: URLs.
 *
 * The loaders are loaded and created only when a file uses their extension (most avatars are not
 * compressed: the first frame does not wait for them) and then kept for the page's life (three.js
 * wants one KTX2Loader per page; each keeps its worker pool).
 */
import type { WebGLRenderer } from 'three';
import type { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MotionError } from '../../shared/errors';

export type Compression = 'draco' | 'meshopt' | 'ktx2';

export const COMPRESSION_EXTENSION: Readonly<Record<Compression, string>> = {
  draco: 'KHR_draco_mesh_compression',
  meshopt: 'EXT_meshopt_compression',
  ktx2: 'KHR_texture_basisu',
};

/**
 * A decoder failed on the file's data: the catalogue detail names the compression and its extension,
 * `reason` is what the decoder said (its own words).
 */
export class DecoderError extends MotionError {
  constructor(
    readonly compression: Compression,
    reason: string,
  ) {
    super('BAD_GLTF', compression === 'draco' ? 'avatar.dracoFailed' : compression === 'meshopt' ? 'avatar.meshoptFailed' : 'avatar.ktx2Failed', { reason });
  }
}

/** Folder of the app's own decoder files (electron.vite.config.ts emits them there). */
const DECODER_DIR = 'decoders/';

const detailOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)) || 'the decoder gave no reason';

/** Which compressions a glTF JSON says it uses (extensionsUsed, or extensionsRequired if a writer forgot the first). */
export function compressionsUsed(json: unknown): Compression[] {
  const j = (typeof json === 'object' && json !== null ? json : {}) as { extensionsUsed?: unknown; extensionsRequired?: unknown };
  const names = new Set([...(Array.isArray(j.extensionsUsed) ? j.extensionsUsed : []), ...(Array.isArray(j.extensionsRequired) ? j.extensionsRequired : [])]);
  return (Object.keys(COMPRESSION_EXTENSION) as Compression[]).filter((c) => names.has(COMPRESSION_EXTENSION[c]));
}

/** The decoders run in a page (workers, fetch from the page's origin); Node tests get this instead of a three.js internal. */
function inPage(): void {
  if (typeof document === 'undefined' || typeof Worker === 'undefined') throw new Error('compressed avatars are decoded only in the studio page (no decoders outside a browser)');
}

type Draco = import('three/examples/jsm/loaders/DRACOLoader.js').DRACOLoader;
type Ktx2 = import('three/examples/jsm/loaders/KTX2Loader.js').KTX2Loader;
type Meshopt = Parameters<GLTFLoader['setMeshoptDecoder']>[0];

/**
 * Texture decoding failures since the last takeTextureProblems(): GLTFLoader loads an avatar without
 * a texture it cannot decode (it logs and goes on), so loadAvatar collects the reasons to report them.
 */
const textureProblems: DecoderError[] = [];
export function takeTextureProblems(): DecoderError[] {
  return textureProblems.splice(0);
}

let draco: Promise<Draco> | null = null;
let ktx2: Promise<Ktx2> | null = null;
let meshopt: Promise<Meshopt> | null = null;

function dracoLoader(): Promise<Draco> {
  draco ??= Promise.resolve().then(inPage).then(() => import('three/examples/jsm/loaders/DRACOLoader.js')).then(({ DRACOLoader }) => {
    // GLTFLoader decodes through decodeDracoFile(buffer, onLoad, ids, types, colorSpace, onError) (three r187;
    // not in the type declarations): its onError gets the decoder's message with the extension named.
    const loader = new DRACOLoader();
    const own = loader as unknown as { decodeDracoFile(...a: unknown[]): unknown };
    const decode = own.decodeDracoFile.bind(loader);
    own.decodeDracoFile = (...a: unknown[]) => {
      const onError = a[5] as ((e: unknown) => void) | undefined;
      a[5] = (e: unknown) => onError?.(new DecoderError('draco', detailOf(e)));
      return decode(...a);
    };
    return loader;
  });
  return draco;
}

function ktx2Loader(renderer: WebGLRenderer): Promise<Ktx2> {
  ktx2 ??= Promise.resolve().then(inPage).then(() => import('three/examples/jsm/loaders/KTX2Loader.js')).then(({ KTX2Loader }) => {
    // GLTFLoader hands an embedded KTX2 image to parse(buffer, onLoad, onError) (three r187; a file
    // beside the model goes through load(), which fetches and calls parse): onError names the extension,
    // and the reason is kept for the avatar's report.
    const loader = new KTX2Loader();
    const parse = loader.parse.bind(loader);
    loader.parse = (buffer, onLoad, onError) =>
      parse(buffer, onLoad, (e: unknown) => {
        const error = e instanceof DecoderError ? e : new DecoderError('ktx2', detailOf(e));
        textureProblems.push(error);
        onError?.(error);
      });
    // Basis Universal payloads (vkFormat 0: ETC1S, UASTC) go to three.js's transcoder in a worker. Its
    // Emscripten glue evaluates strings as code, which the page's CSP forbids also in blob: workers, so
    // the worker is the app's own file decoders/basis_worker.js (built by electron.vite.config.ts as
    // three builds its blob), served with a policy of its own (BASIS_WORKER_CSP). Should a worker fail
    // anyway, the textures waiting on it fail with its message instead of waiting forever.
    const own = loader as unknown as {
      init(): Promise<void>;
      _createTexture(buffer: ArrayBuffer, config?: object): Promise<unknown>;
      workerPool: { setWorkerCreator(create: () => Worker): void };
      workerConfig: object;
      transcoderBinary: ArrayBuffer;
    };
    let failWorkers: (e: Error) => void = () => undefined;
    const workersFailed = new Promise<never>((_, reject) => (failWorkers = reject));
    workersFailed.catch(() => undefined);
    const init = own.init.bind(loader);
    own.init = () =>
      init().then(() => {
        own.workerPool.setWorkerCreator(() => {
          const worker = new Worker(new URL(`${DECODER_DIR}basis_worker.js`, document.baseURI));
          worker.addEventListener('error', (e) => failWorkers(new Error(`the Basis transcoder did not start (${e.message || 'worker error'})`)));
          const transcoderBinary = own.transcoderBinary.slice(0);
          worker.postMessage({ type: 'init', config: own.workerConfig, transcoderBinary }, [transcoderBinary]);
          return worker;
        });
      });
    const create = own._createTexture.bind(loader);
    own._createTexture = (buffer: ArrayBuffer, config?: object) => {
      const basis = buffer.byteLength >= 16 && new DataView(buffer).getUint32(12, true) === 0;
      return basis ? Promise.race([create(buffer, config), workersFailed]) : create(buffer, config);
    };
    return loader.detectSupport(renderer);
  });
  return ktx2;
}

function meshoptDecoder(): Promise<Meshopt> {
  meshopt ??= import('three/examples/jsm/libs/meshopt_decoder.module.js').then(async ({ MeshoptDecoder }) => {
    const real = MeshoptDecoder as unknown as {
      supported: boolean;
      ready: Promise<void>;
      decodeGltfBufferAsync(count: number, stride: number, source: Uint8Array, mode: string, filter?: string): Promise<Uint8Array>;
    };
    try {
      await real.ready;
    } catch (e) {
      throw new DecoderError('meshopt', `the decoder did not start (${detailOf(e)})`);
    }
    // GLTFLoader calls decodeGltfBufferAsync when it exists; a wrapper names the extension in its errors.
    return {
      supported: real.supported,
      ready: real.ready,
      decodeGltfBufferAsync: (count: number, stride: number, source: Uint8Array, mode: string, filter?: string) =>
        real.decodeGltfBufferAsync(count, stride, source, mode, filter).catch((e: unknown) => {
          throw new DecoderError('meshopt', detailOf(e));
        }),
    } as unknown as Meshopt;
  });
  return meshopt;
}

/**
 * Registers on `loader` the decoders the file needs (from its glTF JSON). KTX2 textures are
 * transcoded to a format the GPU of `renderer` takes, so they need the scene's renderer.
 */
export async function registerDecoders(loader: GLTFLoader, json: unknown, renderer?: WebGLRenderer): Promise<void> {
  for (const c of compressionsUsed(json)) {
    try {
      if (c === 'draco') loader.setDRACOLoader(await dracoLoader());
      else if (c === 'meshopt') loader.setMeshoptDecoder(await meshoptDecoder());
      else if (!renderer) throw new Error('KTX2 textures are transcoded for a renderer, and none was given');
      else loader.setKTX2Loader(await ktx2Loader(renderer));
    } catch (e) {
      if (e instanceof DecoderError) throw e;
      throw new DecoderError(c, detailOf(e));
    }
  }
}
