/** Messages between the library panel and its thumbnail worker (renderer/library/thumbnailWorker.ts). */
export interface ThumbnailRequest {
  readonly id: number;
  readonly name: string;
  readonly bytes: Uint8Array;
}

export type ThumbnailReply =
  | { readonly id: number; readonly ok: true; readonly image: Blob; readonly duration: number; readonly frames: number }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** Pixel size of a thumbnail: a strip of three stick figures at the start, middle and end. */
export const THUMB_WIDTH = 84;
export const THUMB_HEIGHT = 36;
