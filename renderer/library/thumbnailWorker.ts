/**
 * Module worker that makes library thumbnails off the page's main thread: it reads the motion
 * (through the format table's reader: .vrma as is, every other motion converted), draws its pose strip on an OffscreenCanvas and sends
 * back a PNG blob. One file at a time; the page queues them (renderer/library/thumbnails.ts).
 */
import { convertToMotion } from '../../shared/formats';
import { durationOf } from '../../shared/motion/types';
import { drawPoseStrip } from './poseStrip';
import { THUMB_HEIGHT, THUMB_WIDTH, type ThumbnailReply, type ThumbnailRequest } from './thumbnailProtocol';

interface WorkerScope {
  onmessage: ((e: MessageEvent<ThumbnailRequest>) => void) | null;
  postMessage(message: ThumbnailReply): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = async (e) => {
  const { id, name, bytes } = e.data;
  try {
    const motion = convertToMotion(name, bytes);
    const canvas = new OffscreenCanvas(THUMB_WIDTH * 2, THUMB_HEIGHT * 2);
    const ctx = canvas.getContext('2d')!;
    ctx.scale(2, 2);
    const frames = drawPoseStrip(ctx as unknown as CanvasRenderingContext2D, motion, THUMB_WIDTH, THUMB_HEIGHT);
    const image = await canvas.convertToBlob({ type: 'image/png' });
    scope.postMessage({ id, ok: true, image, duration: durationOf(motion), frames });
  } catch (err) {
    scope.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
