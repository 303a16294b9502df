/**
 * KTX2 files for the compressed-avatar tests, written with ktx-parse from PNG pixels decoded by
 * sharp: uncompressed R8G8B8A8 sRGB, and UASTC of solid-colour blocks; both one level, no
 * supercompression, through one container writer.
 */

/**
 * A PNG as an uncompressed KTX2 file (R8G8B8A8 sRGB, one level, no supercompression), written with
 * ktx-parse and decoded with sharp. This is a KTX2 container that three.js's KTX2Loader reads
 * without the Basis transcoder: no Basis Universal encoder (basisu, toktx, ktx2-encoder) is installed.
 */
export async function pngToRawKtx2(png: Uint8Array): Promise<Uint8Array> {
  const ktx = await import('ktx-parse');
  const { data, info } = await rgbaOf(png);
  const level = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return oneLevelKtx2(ktx, info.width, info.height, level, {
    vkFormat: ktx.VK_FORMAT_R8G8B8A8_SRGB,
    colorModel: ktx.KHR_DF_MODEL_RGBSDA,
    texelBlockDimension: [0, 0, 0, 0],
    bytesPlane: [4, 0, 0, 0, 0, 0, 0, 0],
    samples: [ktx.KHR_DF_CHANNEL_RGBSDA_RED, ktx.KHR_DF_CHANNEL_RGBSDA_GREEN, ktx.KHR_DF_CHANNEL_RGBSDA_BLUE, ktx.KHR_DF_CHANNEL_RGBSDA_ALPHA].map((ch, i) => ({
      bitOffset: i * 8,
      bitLength: 7,
      channelType: ch === ktx.KHR_DF_CHANNEL_RGBSDA_ALPHA ? ch | ktx.KHR_DF_SAMPLE_DATATYPE_LINEAR : ch,
      samplePosition: [0, 0, 0, 0],
      sampleLower: 0,
      sampleUpper: 255,
    })),
  });
}

/** A PNG's pixels as 8-bit RGBA, decoded by sharp. */
async function rgbaOf(png: Uint8Array): Promise<{ data: Buffer; info: { width: number; height: number } }> {
  const { default: sharp } = await import('sharp');
  return sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
}

type KtxParse = typeof import('ktx-parse');
type BasicFormat = import('ktx-parse').KTX2DataFormatDescriptorBasicFormat;

/** What differs between the two KTX2 files written here: the format and its descriptor's layout fields. */
interface KtxFormat {
  readonly vkFormat: number;
  readonly colorModel: number;
  readonly texelBlockDimension: BasicFormat['texelBlockDimension'];
  readonly bytesPlane: BasicFormat['bytesPlane'];
  readonly samples: BasicFormat['samples'];
}

/** A KTX2 file of one level, no supercompression, sRGB BT.709, with `level` as its data. */
function oneLevelKtx2(ktx: KtxParse, width: number, height: number, level: Uint8Array, f: KtxFormat): Uint8Array {
  const c = ktx.createDefaultContainer();
  c.vkFormat = f.vkFormat as typeof c.vkFormat;
  c.typeSize = 1;
  c.pixelWidth = width;
  c.pixelHeight = height;
  c.pixelDepth = 0;
  c.levelCount = 1;
  c.supercompressionScheme = ktx.KHR_SUPERCOMPRESSION_NONE;
  c.levels = [{ levelData: level, uncompressedByteLength: level.byteLength }];
  const dfd = c.dataFormatDescriptor[0];
  dfd.colorModel = f.colorModel as typeof dfd.colorModel;
  dfd.colorPrimaries = ktx.KHR_DF_PRIMARIES_BT709;
  dfd.transferFunction = ktx.KHR_DF_TRANSFER_SRGB;
  dfd.texelBlockDimension = f.texelBlockDimension;
  dfd.bytesPlane = f.bytesPlane;
  dfd.samples = f.samples;
  return ktx.write(c);
}

// No Basis encoder is installed (basisu, toktx, ktx2-encoder are not among the packages), so the test
// writes UASTC with the one block mode that needs no search: mode 8, a solid colour per 4x4 block
// (the block's mean), as basisu's pack_uastc lays it out: the mode code (5 bits, 0b10111), R, G, B, A
// (8 bits each), then the ETC1 hints (diff flag, intensity table, selector, 5-bit base colour). The
// picture is the texture at a quarter of its resolution; what it proves is that KHR_texture_basisu
// textures go through the shipped Basis transcoder (its worker and wasm from the page's origin).

class BitWriter {
  readonly bytes: Uint8Array;
  private at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
  put(value: number, bits: number) {
    for (let i = 0; i < bits; i++, this.at++) if ((value >> i) & 1) this.bytes[this.at >> 3] |= 1 << (this.at & 7);
  }
}

/** A UASTC mode-8 block of one colour. */
export function uastcSolidBlock(r: number, g: number, b: number, a: number): Uint8Array {
  const w = new BitWriter(16);
  w.put(0b10111, 5);
  w.put(r, 8);
  w.put(g, 8);
  w.put(b, 8);
  w.put(a, 8);
  // ETC1 hints: differential mode, intensity table 0 (modifiers ±2, ±8), the ±2 selector, base colour in 5 bits.
  w.put(1, 1);
  w.put(0, 3);
  w.put(1, 2);
  for (const c of [r, g, b]) w.put(Math.round((c * 31) / 255), 5);
  return w.bytes;
}

/** A PNG as a KTX2 file of UASTC blocks (vkFormat undefined, DFD model UASTC, one level, no supercompression). */
export async function pngToUastcKtx2(png: Uint8Array): Promise<Uint8Array> {
  const ktx = await import('ktx-parse');
  const { data, info } = await rgbaOf(png);
  const bw = Math.ceil(info.width / 4), bh = Math.ceil(info.height / 4);
  const level = new Uint8Array(bw * bh * 16);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const sum = [0, 0, 0, 0];
      let n = 0;
      for (let y = by * 4; y < Math.min(info.height, by * 4 + 4); y++) {
        for (let x = bx * 4; x < Math.min(info.width, bx * 4 + 4); x++, n++) for (let c = 0; c < 4; c++) sum[c] += data[(y * info.width + x) * 4 + c];
      }
      const [r, g, b, a] = sum.map((v) => Math.round(v / n));
      level.set(uastcSolidBlock(r, g, b, a), (by * bw + bx) * 16);
    }
  }
  return oneLevelKtx2(ktx, info.width, info.height, level, {
    vkFormat: ktx.VK_FORMAT_UNDEFINED,
    colorModel: ktx.KHR_DF_MODEL_UASTC,
    texelBlockDimension: [3, 3, 0, 0],
    bytesPlane: [16, 0, 0, 0, 0, 0, 0, 0],
    // One 128-bit sample: UASTC RGBA (channel 3).
    samples: [{ bitOffset: 0, bitLength: 127, channelType: 3, samplePosition: [0, 0, 0, 0], sampleLower: 0, sampleUpper: 0xffffffff }],
  });
}
