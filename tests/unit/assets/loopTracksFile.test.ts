/**
 * The walk cycle's keys as the renderer's build ships them (shared/assets/loopTracksFile.ts, issue 30):
 * the Motion the page builds from the file is the generator's own, bit for bit, and a damaged file
 * is a MotionError (the page then generates the walk itself).
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeWalkCycle, walkCycleTracks } from '../../../shared/assets/walkCycle';
import { readLoopTracks, writeLoopTracks } from '../../../shared/assets/loopTracksFile';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';

describe('loop tracks file', () => {
  it('reads back the walk cycle bit for bit: the same Motion and the same .vrma bytes as the generator', () => {
    const file = writeLoopTracks(walkCycleTracks());
    const tracks = readLoopTracks(file);
    const generated = makeWalkCycle();
    const fromFile = buildMotion(tracks);
    // 53 channels of 67 keys at 30 fps over 2.2 s (the stride is 1.1 s).
    expect(fromFile.channels.length).toBe(generated.channels.length);
    expect(fromFile.channels[0].times.length).toBe(67);
    for (const [i, c] of generated.channels.entries()) {
      const d = fromFile.channels[i];
      expect([d.node, d.path]).toEqual([c.node, c.path]);
      // Float32 bits, not a tolerance: the stored numbers are the baked ones.
      expect(new Uint32Array(d.times.buffer, d.times.byteOffset, d.times.length)).toEqual(new Uint32Array(c.times.buffer, c.times.byteOffset, c.times.length));
      expect(new Uint32Array(d.values.buffer, d.values.byteOffset, d.values.length)).toEqual(new Uint32Array(c.values.buffer, c.values.byteOffset, c.values.length));
    }
    expect(isDeepStrictEqual(fromFile, generated)).toBe(true);
    expect(Buffer.compare(Buffer.from(writeVrma(fromFile)), Buffer.from(writeVrma(generated)))).toBe(0);
    // All tracks on one times array, as the baker makes them.
    expect(new Set(Object.values(tracks.rotations).map((t) => t!.times)).size).toBe(1);
    expect(tracks.hipsTranslation.times).toBe(Object.values(tracks.rotations)[0]!.times);
  });

  it('refuses a file that is not one, is cut short or runs long, with a MotionError', () => {
    const file = writeLoopTracks(walkCycleTracks());
    const refusal = (bytes: Uint8Array) => {
      try {
        readLoopTracks(bytes);
      } catch (e) {
        return e instanceof MotionError ? `${e.code} ${e.detail}` : `not a MotionError: ${String(e)}`;
      }
      return 'read';
    };
    expect(refusal(new Uint8Array(4))).toBe('BAD_DATA loopTracks.notFile');
    expect(refusal(file.slice(0, file.length - 4))).toBe('BAD_DATA loopTracks.truncated');
    const longer = new Uint8Array(file.length + 4);
    longer.set(file);
    expect(refusal(longer)).toBe('BAD_DATA loopTracks.trailing');
    const wrongMagic = file.slice();
    wrongMagic[0] ^= 1;
    expect(refusal(wrongMagic)).toBe('BAD_DATA loopTracks.notFile');
    // And the English the user would read, from the catalogue.
    expect(() => readLoopTracks(new Uint8Array(4))).toThrow(/not a built-in motion file/);
  });
});
