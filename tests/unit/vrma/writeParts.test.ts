/**
 * The .vrma as parts (shared/vrma/writeParts.ts) and the upload body made of them
 * (shared/contract/wire.ts encodeWireParts), which is how the autosave of an hour-long motion stopped
 * crashing the page: the old path joined the whole file into one buffer and copied it again into the
 * wire message (and the browser a third time into the request), 3 × 413 MB at 60 min / 120 fps.
 * What is measured here: the bytes the upload body allocates beyond the Motion's own arrays, per key,
 * on a generated motion; the old path (writeVrma + encodeWire) allocates 2 × the file, over 30 B a key here.
 */
import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { writeVrmaParts, joinParts } from '../../../shared/vrma/writeParts';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { decodeWire, encodeWire, encodeWireParts, WireByteParts } from '../../../shared/contract/wire';
import type { Motion } from '../../../shared/motion/types';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation, normalizedRotationTracks } from '../../../testkit/threeVrmAnimation';

const keysOf = (m: Motion) => m.channels.reduce((s, c) => s + c.times.length, 0);

/** Bytes of the pieces that are not views of the motion's own arrays (what writing them allocated). */
function ownBytes(pieces: readonly Uint8Array[], motion: Motion): number {
  const held = new Set<ArrayBufferLike>(motion.channels.flatMap((c) => [c.times.buffer, c.values.buffer]));
  return pieces.reduce((n, p) => n + (held.has(p.buffer) ? 0 : p.length), 0);
}

describe('the .vrma as parts', () => {
  const motion = makeLongMotion(60, 60); // 61 tracks × 3,601 keys

  it('costs under 0.1 byte a key beyond the motion arrays, for the file and for the upload body', () => {
    const keys = keysOf(motion);
    const written = writeVrmaParts(motion);
    const body = encodeWireParts([{ motionName: 'long', undoIndex: 1, motion: new WireByteParts(written.parts, written.byteLength) }]);
    const fileOwn = ownBytes(written.parts, motion) / keys;
    const bodyOwn = ownBytes(body, motion) / keys;
    // The old path, for the record: the joined file and the joined message, each a copy of everything.
    const old = writeVrma(motion);
    const oldBody = encodeWire([{ motionName: 'long', undoIndex: 1, motion: old }]);
    const oldOwn = (old.length + oldBody.length) / keys;
    console.log(`parts: file ${fileOwn.toFixed(4)} B/key, upload body ${bodyOwn.toFixed(4)} B/key own; joined path ${oldOwn.toFixed(1)} B/key (${keys} keys, ${written.byteLength} bytes)`);
    expect(fileOwn).toBeLessThan(0.1);
    expect(bodyOwn).toBeLessThan(0.1);
    expect(oldOwn).toBeGreaterThan(30);
  });

  it("the body decodes to writeVrma's bytes, which gltf-validator passes and three-vrm-animation plays", async () => {
    const written = writeVrmaParts(motion);
    const pieces = encodeWireParts([{ motion: new WireByteParts(written.parts) }]);
    const joined = encodeWire([{ motion: joinParts(written) }]);
    const body = new Uint8Array(await new Blob(pieces as BlobPart[]).arrayBuffer());
    expect(body.length).toBe(joined.length);
    expect(Buffer.from(body).equals(Buffer.from(joined))).toBe(true);
    const file = (decodeWire(body) as [{ motion: Uint8Array }])[0].motion;
    expect(Buffer.from(file).equals(Buffer.from(writeVrma(motion)))).toBe(true);
    const report = await validateVrmaBytes(file);
    expect(report.errors).toBe(0);
    // An independent reader: the hips track's key 1,000 as three-vrm-animation reads it (1e-6: float32).
    const anim = await loadVrmAnimation(file);
    const hips = normalizedRotationTracks(anim).get('hips')!;
    const ours = motion.channels.find((c) => c.path === 'rotation' && c.node === motion.humanoid.boneToNode.hips)!;
    for (let k = 0; k < 4; k++) expect(Math.abs(hips.values[4000 + k] - ours.values[4000 + k])).toBeLessThan(1e-6);
  });

  it('a drifted rotation is written normalized from a copy; the motion keeps its own values', () => {
    const c = motion.channels.find((x) => x.path === 'rotation')!;
    const values = c.values.slice();
    values[4 * 10 + 3] *= 1.01; // key 10 about 1% too long
    const drifted: Motion = { ...motion, channels: motion.channels.map((x) => (x === c ? { ...c, values } : x)) };
    const before = values.slice();
    const written = writeVrmaParts(drifted);
    expect(Buffer.from(new Uint8Array(values.buffer)).equals(Buffer.from(new Uint8Array(before.buffer)))).toBe(true);
    expect(ownBytes(written.parts, drifted)).toBeGreaterThanOrEqual(values.byteLength);
    const back = readVrma(joinParts(written)).channels.find((x) => x.node === c.node && x.path === 'rotation')!;
    const q = back.values.subarray(40, 44);
    expect(Math.abs(Math.hypot(...q) - 1)).toBeLessThan(1e-6);
  });
});
