/** Reading a request body within its limit, motion uploads paced by the upload lane and the byte gate. */
import type { IncomingMessage } from 'node:http';
import { StudioApiError } from '../../shared/contract/studioApi';
import type { ByteGate } from './byteGate';
import type { UploadLane } from './uploadLane';

/**
 * The body, at most `limit` bytes, into one buffer of the declared length (no chunk list and
 * concat copy). Motion uploads first take a reading slot in the upload lane (uploadLane.ts: at
 * most two bodies are read at once, and they wait while small calls are answered), then their
 * size from the upload gate.
 */
export async function readBody(req: IncomingMessage, limit: number, gated: boolean, lane: UploadLane, uploads: ByteGate): Promise<{ body: Uint8Array; release: () => void }> {
  const header = req.headers['content-length'];
  const declared = header === undefined ? null : Number(header);
  if (declared !== null && (!Number.isSafeInteger(declared) || declared < 0)) throw new StudioApiError('BAD_ARGUMENT', 'bad Content-Length');
  if ((declared ?? 0) > limit) throw new StudioApiError('BAD_ARGUMENT', `request larger than ${limit} bytes for this call`);
  const reserve = declared ?? limit;
  const reader = gated ? await lane.enter() : null;
  let release: () => void = () => undefined;
  let total = 0;
  try {
    const hold = reader ? await uploads.reserve(reserve) : null;
    if (hold) {
      release = () => hold.release();
      // A stalled sender keeps only what it sent (finding 8); it waits for the rest when it resumes.
      reader!.onStall = () => hold.shrinkTo(total);
    }
    let buf = Buffer.allocUnsafe(declared ?? Math.min(limit, 64 * 1024));
    for await (const chunk of req) {
      const c = chunk as Buffer;
      if (hold && hold.bytes < reserve) await hold.growTo(reserve);
      const wait = reader?.pace(c.length);
      if (wait) await wait; // unread meanwhile: TCP holds the sender back
      if (total + c.length > limit || (declared !== null && total + c.length > declared)) {
        throw new StudioApiError('BAD_ARGUMENT', `request larger than ${declared ?? limit} bytes for this call`);
      }
      if (total + c.length > buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buf.length * 2, total + c.length)));
        buf.copy(grown, 0, 0, total);
        buf = grown;
      }
      c.copy(buf, total);
      total += c.length;
    }
    return { body: new Uint8Array(buf.buffer, buf.byteOffset, total), release };
  } catch (e) {
    release();
    throw e;
  } finally {
    reader?.end();
  }
}
