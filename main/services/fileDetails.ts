/**
 * Kind and duration of a library file, worked out lazily and cheaply: only the headers and key
 * times are read (a .vrma's sampler input max, a .vmd's frame numbers, a .bvh's Frames line), never
 * a full conversion. Results are cached by path, size and mtime.
 */
import { promises as fs } from 'node:fs';
import { extensionOf, type FileDetails } from '../../shared/contract/studioApi';
import { parseGlb } from '../../shared/gltf/glb';

const VMD_FPS = 30;

/** Duration of a .vrma from its animation's input accessors (max, else the key data). */
export function vrmaDuration(bytes: Uint8Array): number {
  const { json, bin } = parseGlb(bytes);
  const gltf = json as {
    animations?: { samplers?: { input?: number }[] }[];
    accessors?: { bufferView?: number; byteOffset?: number; count?: number; max?: number[]; componentType?: number }[];
    bufferViews?: { byteOffset?: number; byteStride?: number }[];
  };
  const anim = gltf.animations?.[0];
  if (!anim) throw new Error('no animation in the file');
  let duration = 0;
  for (const s of anim.samplers ?? []) {
    const acc = typeof s.input === 'number' ? gltf.accessors?.[s.input] : undefined;
    if (!acc) throw new Error('sampler input accessor missing');
    let max = acc.max?.[0];
    if (typeof max !== 'number' && acc.componentType === 5126 && typeof acc.bufferView === 'number' && (acc.count ?? 0) > 0) {
      const view = gltf.bufferViews?.[acc.bufferView];
      const at = (view?.byteOffset ?? 0) + (acc.byteOffset ?? 0) + ((acc.count ?? 1) - 1) * (view?.byteStride || 4);
      if (at + 4 > bin.length) throw new Error('time accessor outside the buffer');
      max = new DataView(bin.buffer, bin.byteOffset, bin.byteLength).getFloat32(at, true);
    }
    if (typeof max === 'number' && Number.isFinite(max)) duration = Math.max(duration, max);
  }
  return duration;
}

/** Duration of a .vmd from the largest bone or morph key frame (30 fps). */
export function vmdDuration(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(30, bytes.length)));
  if (!header.startsWith('Vocaloid Motion Data')) throw new Error('not a VMD file');
  const nameLength = header.startsWith('Vocaloid Motion Data 0002') ? 20 : 10;
  let at = 30 + nameLength;
  let maxFrame = 0;
  const section = (recordSize: number, frameOffset: number) => {
    if (at + 4 > bytes.length) return false;
    const count = dv.getUint32(at, true);
    at += 4;
    if (count > (bytes.length - at) / recordSize) throw new Error('VMD key count larger than the file');
    for (let i = 0; i < count; i++) maxFrame = Math.max(maxFrame, dv.getUint32(at + i * recordSize + frameOffset, true));
    at += count * recordSize;
    return true;
  };
  section(111, 15) && section(23, 15);
  return maxFrame / VMD_FPS;
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

export async function describeFileOnDisk(path: string): Promise<FileDetails> {
  const ext = extensionOf(path);
  try {
    switch (ext) {
      case '.vrm':
      case '.glb':
        return { path, kind: 'avatar' };
      case '.vpd':
        return { path, kind: 'pose', duration: 0 };
      case '.bvh': {
        // The MOTION header sits after the hierarchy; 256 KiB covers any real skeleton.
        const head = new TextDecoder().decode(await readHead(path, 256 * 1024));
        const duration = bvhDuration(head);
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      case '.vmd': {
        const duration = vmdDuration(new Uint8Array(await fs.readFile(path)));
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      case '.vrma': {
        const duration = vrmaDuration(new Uint8Array(await fs.readFile(path)));
        return { path, kind: duration > 0 ? 'motion' : 'pose', duration };
      }
      default:
        return { path, kind: 'unreadable', error: 'not a studio file type' };
    }
  } catch (e) {
    return { path, kind: 'unreadable', error: (e as Error).message };
  }
}

/** describeFileOnDisk with a cache keyed by size and mtime. */
export class FileDetailsCache {
  private cache = new Map<string, { size: number; mtimeMs: number; details: FileDetails }>();

  async describe(path: string): Promise<FileDetails> {
    const st = await fs.stat(path);
    const hit = this.cache.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.details;
    const details = await describeFileOnDisk(path);
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, details });
    return details;
  }
}
