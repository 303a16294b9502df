/**
 * Kind and duration of a library file, worked out lazily, never by a full conversion: a .vrma and a
 * .vmd are read by the core's own readers (so a file listed as readable is one the studio opens, and
 * a broken one is reported with the reader's message), a .bvh by its MOTION header lines only.
 * Results are cached by path, size and mtime.
 */
import { promises as fs } from 'node:fs';
import { extensionOf, type FileDetails } from '../../shared/contract/studioApi';
import { readVrma } from '../../shared/vrma/read';
import { motionErrorInfo } from '../../shared/errors';
import { durationOf } from '../../shared/motion/types';
import { parseVmd, VMD_FPS } from '../../shared/convert/mmd/vmd';
import { gltfKind } from '../../shared/convert/gltfKind';
import type { TakeInfo } from '../../shared/convert/takes';

/**
 * Lists the takes of an .fbx/.glb/.gltf (a big FBX takes seconds: the backend runs it on a worker
 * thread, takesLister.ts). Rejects with the converter's message; `code` IS_AVATAR for a VRM without animations.
 */
export type TakesLister = (path: string) => Promise<readonly TakeInfo[]>;

/** Details of a file with takes: its first take's duration (the one the studio offers first) and every take. */
function takeDetails(path: string, takes: readonly TakeInfo[], kind: 'motion' | 'avatar'): FileDetails {
  if (kind === 'avatar') return { path, kind, takes };
  if (!takes.length) return { path, kind: 'unreadable', error: 'the file has no animation (no take to convert)' };
  const duration = takes[0].duration;
  return { path, kind: duration > 0 || takes.length > 1 ? 'motion' : 'pose', duration, takes };
}

/** An MMD model by its magic: PMX 2.x ("PMX ") or PMD ("Pmd"). */
function mmdModelProblem(head: Uint8Array): string | null {
  const magic = String.fromCharCode(...head.subarray(0, 4));
  return magic === 'PMX ' || magic.startsWith('Pmd') ? null : 'not a PMX or PMD model (bad header)';
}

/** Duration of a .vrma as the studio will open it (the core's reader; errors are its MotionErrors). */
export function vrmaDuration(bytes: Uint8Array): number {
  return durationOf(readVrma(bytes));
}

/** Duration of a .vmd from its last bone, morph or IK key frame, as the core's VMD parser reads it. */
export function vmdDuration(bytes: Uint8Array): number {
  return parseVmd(bytes).lastFrame / VMD_FPS;
}

/** Duration of a .bvh from its MOTION header: (Frames - 1) x Frame Time. */
export function bvhDuration(text: string): number {
  const frames = /Frames:\s*(\d+)/i.exec(text);
  const frameTime = /Frame\s+Time:\s*([0-9.eE+-]+)/i.exec(text);
  if (!frames || !frameTime) throw new Error('no MOTION header (Frames / Frame Time)');
  const n = Number(frames[1]);
  const dt = Number(frameTime[1]);
  if (!Number.isFinite(dt) || dt <= 0) throw new Error('bad Frame Time');
  return Math.max(0, n - 1) * dt;
}

async function readHead(path: string, bytes: number): Promise<Uint8Array> {
  const h = await fs.open(path, 'r');
  try {
    const buf = new Uint8Array(bytes);
    const { bytesRead } = await h.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

/**
 * How describe reads a file. The backend passes its open-then-check reader (AccessPolicy: O_NONBLOCK,
 * the descriptor compared with the allowed path, regular files only), so a FIFO named walk.bvh in an
 * opened folder cannot block the thread pool (issue 24, finding 10). Plain fs by default (tests, CLI).
 */
export interface DetailsReader {
  all(path: string): Promise<Uint8Array>;
  head(path: string, bytes: number): Promise<Uint8Array>;
}

const diskReader: DetailsReader = { all: async (path) => new Uint8Array(await fs.readFile(path)), head: readHead };

export async function describeFileOnDisk(path: string, listTakes?: TakesLister, read: DetailsReader = diskReader): Promise<FileDetails> {
  const ext = extensionOf(path);
  try {
    switch (ext) {
      case '.vrm':
        return { path, kind: 'avatar' };
      case '.glb':
      case '.gltf': {
        const kind = gltfKind(await read.all(path));
        if (kind === 'avatar') return ext === '.glb' ? { path, kind: 'avatar' } : { path, kind: 'unreadable', error: 'a glTF model without animations' };
        if (!listTakes) return { path, kind: kind === 'motion' ? 'motion' : 'avatar' };
        return takeDetails(path, await listTakes(path), kind === 'motion' ? 'motion' : 'avatar');
      }
      case '.fbx':
        await read.head(path, 1); // a regular file, before a worker opens it by name
        if (!listTakes) return { path, kind: 'motion' };
        return takeDetails(path, await listTakes(path), 'motion');
      case '.pmx':
      case '.pmd': {
        const problem = mmdModelProblem(await read.head(path, 4));
        return problem ? { path, kind: 'unreadable', error: problem } : { path, kind: 'model' };
      }
      case '.vpd':
        return { path, kind: 'pose', duration: 0 };
      case '.bvh': {
        // The MOTION header sits after the hierarchy; 256 KiB covers any real skeleton.
        const head = new TextDecoder().decode(await read.head(path, 256 * 1024));
        const duration = bvhDuration(head);
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      case '.vmd': {
        const duration = vmdDuration(await read.all(path));
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      case '.vrma': {
        const duration = vrmaDuration(await read.all(path));
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      default:
        return { path, kind: 'unreadable', error: 'not a studio file type' };
    }
  } catch (e) {
    return { path, kind: 'unreadable', error: (e as Error).message, problem: motionErrorInfo(e) };
  }
}

/** describeFileOnDisk with a cache keyed by size and mtime. */
export class FileDetailsCache {
  private cache = new Map<string, { size: number; mtimeMs: number; details: FileDetails }>();

  constructor(private readonly listTakes?: TakesLister, private readonly read?: DetailsReader) {}

  async describe(path: string): Promise<FileDetails> {
    const st = await fs.stat(path);
    const hit = this.cache.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.details;
    const details = await describeFileOnDisk(path, this.listTakes, this.read);
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, details });
    return details;
  }
}
