/**
 * The video frames of a WebM (Matroska) file, as stored: where each one's bytes are, its time and
 * whether it is a key frame, with the track's codec in WebCodecs' words. The capture decodes them in
 * order (renderer/capture/decodedFrames.ts) instead of seeking a <video> for each sample: a browser's
 * own recording (MediaRecorder) has no cue index, so there each seek searches the file, and its cost
 * grows with the clip. The reader follows Matroska's element tree: unknown sizes (a live recording's
 * segment and clusters), SimpleBlocks and BlockGroups, the segment's timestamp scale. A truncated
 * file gives the frames before the cut. What it does not read (laced or encoded video blocks, a codec
 * WebCodecs has no name for, no video track, not EBML) gives null: the capture seeks the <video> then.
 */

/** The video track's decoder settings (VideoDecoderConfig's fields). */
export interface WebmTrack {
  /** WebCodecs codec string: vp8, vp09.…, av01.…, avc1.… */
  readonly codec: string;
  readonly width: number;
  readonly height: number;
  /** The codec's private data (avcC, av1C) where the decoder needs it. */
  readonly description?: Uint8Array;
  /** The track's Colour element in WebCodecs' names (VideoColorSpaceInit), where it has one. */
  readonly colorSpace?: WebmColorSpace;
}

/** VideoColorSpaceInit's fields (a MediaRecorder recording says its colours: the player converts by them). */
export interface WebmColorSpace {
  readonly matrix?: string;
  readonly transfer?: string;
  readonly primaries?: string;
  readonly fullRange?: boolean;
}

export interface WebmFrame {
  /** Presentation time in seconds. */
  readonly time: number;
  readonly key: boolean;
  /** The frame's bytes: bytes.subarray(offset, offset + size). */
  readonly offset: number;
  readonly size: number;
}

export interface WebmVideo {
  readonly track: WebmTrack;
  /** In file (decode) order. */
  readonly frames: readonly WebmFrame[];
  /** Seconds per timestamp tick (the segment's TimestampScale; 1 ms by default). */
  readonly tick: number;
}

const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timestampScale: 0x2ad7b1,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  contentEncodings: 0x6d80,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  colour: 0x55b0,
  matrix: 0x55b1,
  range: 0x55b9,
  transfer: 0x55ba,
  primaries: 0x55bb,
  cluster: 0x1f43b675,
  timestamp: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  referenceBlock: 0xfb,
} as const;

/** Elements that may follow a cluster of unknown size at the segment's level (where such a cluster ends). */
const SEGMENT_LEVEL = new Set([ID.cluster, 0x1c53bb6b, 0x1254c367, 0x1043a770, 0x1941a469, 0x114d9b74, ID.info, ID.tracks]);

interface Element {
  readonly id: number;
  /** Where its body starts and ends (end is the bytes' length for an unknown size, clipped to it for a cut file). */
  readonly start: number;
  readonly end: number;
  readonly unknown: boolean;
  /** Its size runs past `limit` (a file cut short). */
  readonly cut: boolean;
}

/** An EBML variable-length integer at `at`: its value (marker kept for an ID) and length, or null past the end. */
function vint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; allOnes: boolean } | null {
  if (at >= b.length) return null;
  const first = b[at];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i];
    allOnes &&= b[at + i] === 0xff;
  }
  return { value, length, allOnes };
}

function element(b: Uint8Array, at: number, limit: number): Element | null {
  const id = vint(b, at, true);
  if (!id) return null;
  const size = vint(b, at + id.length, false);
  if (!size) return null;
  const start = at + id.length + size.length;
  return { id: id.value, start, end: size.allOnes ? limit : Math.min(limit, start + size.value), unknown: size.allOnes, cut: !size.allOnes && start + size.value > limit };
}

/** The children of [start, end) in order (stops at a child cut off by the end of the bytes). */
function* children(b: Uint8Array, start: number, end: number): Generator<Element> {
  for (let at = start; at < end;) {
    const e = element(b, at, end);
    if (!e) return;
    yield e;
    if (e.unknown) return;
    at = e.end;
  }
}

function uint(b: Uint8Array, e: Element): number {
  let v = 0;
  for (let i = e.start; i < e.end; i++) v = v * 256 + b[i];
  return v;
}

const text = (b: Uint8Array, e: Element) => String.fromCharCode(...b.subarray(e.start, e.end)).replace(/\0+$/, '');
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** WebCodecs' name for a Matroska codec (with what the decoder needs from its private data), or null. */
function codecOf(id: string, priv: Uint8Array | undefined): { codec: string; description?: Uint8Array } | null {
  if (id === 'V_VP8') return { codec: 'vp8' };
  // VP9's private data, where present, is a list of (id, length, value): 1 profile, 2 level, 3 bit depth.
  if (id === 'V_VP9') {
    const f: Record<number, number> = { 1: 0, 2: 10, 3: 8 };
    for (let i = 0; priv && i + 2 < priv.length; i += 2 + priv[i + 1]) f[priv[i]] = priv[i + 2];
    return { codec: `vp09.${String(f[1]).padStart(2, '0')}.${String(f[2]).padStart(2, '0')}.${String(f[3]).padStart(2, '0')}` };
  }
  if (id === 'V_AV1') {
    // av1C: byte 1 seq_profile (3 bits) and seq_level_idx_0 (5), byte 2 tier, high bit depth, twelve bit.
    if (!priv || priv.length < 4) return { codec: 'av01.0.04M.08' };
    const profile = priv[1] >> 5, level = priv[1] & 0x1f, tier = priv[2] >> 7 ? 'H' : 'M';
    const depth = priv[2] & 0x40 ? (profile === 2 && priv[2] & 0x20 ? 12 : 10) : 8;
    return { codec: `av01.${profile}.${String(level).padStart(2, '0')}${tier}.${String(depth).padStart(2, '0')}`, description: priv };
  }
  // avcC: byte 1 profile, 2 constraints, 3 level.
  if (id === 'V_MPEG4/ISO/AVC' && priv && priv.length >= 4) return { codec: `avc1.${hex2(priv[1])}${hex2(priv[2])}${hex2(priv[3])}`, description: priv };
  return null;
}

/** Matroska's Colour codes (ITU-T H.273) in WebCodecs' names; codes it has no name for are left out. */
const MATRIX: Readonly<Record<number, string>> = { 0: 'rgb', 1: 'bt709', 5: 'bt470bg', 6: 'smpte170m', 9: 'bt2020-ncl' };
const TRANSFER: Readonly<Record<number, string>> = { 1: 'bt709', 6: 'smpte170m', 8: 'linear', 13: 'iec61966-2-1', 16: 'pq', 18: 'hlg' };
const PRIMARIES: Readonly<Record<number, string>> = { 1: 'bt709', 5: 'bt470bg', 6: 'smpte170m', 9: 'bt2020', 12: 'smpte432' };

function readColour(b: Uint8Array, colour: Element): WebmColorSpace {
  const c: { matrix?: string; transfer?: string; primaries?: string; fullRange?: boolean } = {};
  for (const e of children(b, colour.start, colour.end)) {
    const v = uint(b, e);
    if (e.id === ID.matrix && MATRIX[v]) c.matrix = MATRIX[v];
    else if (e.id === ID.transfer && TRANSFER[v]) c.transfer = TRANSFER[v];
    else if (e.id === ID.primaries && PRIMARIES[v]) c.primaries = PRIMARIES[v];
    else if (e.id === ID.range && (v === 1 || v === 2)) c.fullRange = v === 2;
  }
  return c;
}

interface Track {
  number: number;
  codec: { codec: string; description?: Uint8Array } | null;
  width: number;
  height: number;
  encoded: boolean;
  colorSpace?: WebmColorSpace;
}

function readTrack(b: Uint8Array, entry: Element): Track | null {
  let number = 0, type = 0, codecId = '', priv: Uint8Array | undefined, width = 0, height = 0, encoded = false;
  let colorSpace: WebmColorSpace | undefined;
  for (const e of children(b, entry.start, entry.end)) {
    if (e.id === ID.trackNumber) number = uint(b, e);
    else if (e.id === ID.trackType) type = uint(b, e);
    else if (e.id === ID.codecId) codecId = text(b, e);
    else if (e.id === ID.codecPrivate) priv = b.subarray(e.start, e.end);
    else if (e.id === ID.contentEncodings) encoded = true;
    else if (e.id === ID.video) {
      for (const v of children(b, e.start, e.end)) {
        if (v.id === ID.pixelWidth) width = uint(b, v);
        else if (v.id === ID.pixelHeight) height = uint(b, v);
        else if (v.id === ID.colour) colorSpace = readColour(b, v);
      }
    }
  }
  return type === 1 ? { number, codec: codecOf(codecId, priv), width, height, encoded, ...(colorSpace && Object.keys(colorSpace).length ? { colorSpace } : {}) } : null;
}

/** A block's header: its track, its time from the cluster's (signed 16 bits) and flags; null for another track. */
function block(b: Uint8Array, e: Element, track: number): { rel: number; flags: number; at: number } | null {
  const n = vint(b, e.start, false);
  if (!n || n.value !== track || e.start + n.length + 3 > e.end) return null;
  const at = e.start + n.length;
  const rel = ((b[at] << 8) | b[at + 1]) << 16 >> 16;
  return { rel, flags: b[at + 2], at: at + 3 };
}

/** The clusters' video blocks; false where a block is laced (several frames in one: not read here). */
function readClusters(b: Uint8Array, segment: Element, track: number, frames: WebmFrame[]): boolean {
  for (let at = segment.start; at < segment.end;) {
    const e = element(b, at, segment.end);
    if (!e) break;
    if (e.id !== ID.cluster) {
      if (e.unknown) break;
      at = e.end;
      continue;
    }
    let base = 0;
    let next = e.start;
    while (next < e.end) {
      const c = element(b, next, e.end);
      // A cluster of unknown size ends where the next segment-level element starts.
      if (!c || (e.unknown && SEGMENT_LEVEL.has(c.id))) break;
      next = c.end;
      let found: { rel: number; flags: number; at: number } | null = null;
      let key = false, end = c.end;
      if (c.id === ID.timestamp) base = uint(b, c);
      else if (c.id === ID.simpleBlock) {
        found = block(b, c, track);
        key = !!found && (found.flags & 0x80) !== 0;
      } else if (c.id === ID.blockGroup) {
        let referenced = false;
        for (const g of children(b, c.start, c.end)) {
          if (g.id === ID.block) [found, end] = [block(b, g, track), g.end];
          else if (g.id === ID.referenceBlock) referenced = true;
        }
        key = !referenced;
      }
      if (!found) continue;
      if (found.flags & 0x06) return false;
      // A block cut off by the end of the file is left out (a recording stopped mid-write).
      if (c.cut || end > b.length) break;
      frames.push({ time: base + found.rel, key, offset: found.at, size: end - found.at });
    }
    if (!e.unknown) at = e.end;
    else at = next;
  }
  return true;
}

/** The video frames of a WebM/Matroska file, or null where this reader cannot give them (see the file's comment). */
export function demuxWebm(b: Uint8Array): WebmVideo | null {
  const head = element(b, 0, b.length);
  if (!head || head.id !== ID.ebml) return null;
  const docType = [...children(b, head.start, head.end)].find((e) => e.id === ID.docType);
  if (!docType || !['webm', 'matroska'].includes(text(b, docType))) return null;
  const segment = element(b, head.end, b.length);
  if (!segment || segment.id !== ID.segment) return null;
  let scale = 1_000_000;
  let track: Track | null = null;
  for (const e of children(b, segment.start, segment.end)) {
    if (e.id === ID.info) {
      for (const i of children(b, e.start, e.end)) if (i.id === ID.timestampScale) scale = uint(b, i);
    } else if (e.id === ID.tracks) {
      for (const t of children(b, e.start, e.end)) if (t.id === ID.trackEntry) track ??= readTrack(b, t);
    } else if (e.id === ID.cluster) break;
  }
  if (!track?.codec || track.encoded || !track.width || !track.height) return null;
  // Times in ticks first, then in seconds.
  const frames: WebmFrame[] = [];
  if (!readClusters(b, segment, track.number, frames)) return null;
  const tick = scale / 1e9;
  const timed = frames.map((f) => ({ ...f, time: f.time * tick }));
  if (!timed.length || !timed[0].key) return null;
  return { track: { ...track.codec, width: track.width, height: track.height, ...(track.colorSpace ? { colorSpace: track.colorSpace } : {}) }, frames: timed, tick };
}
