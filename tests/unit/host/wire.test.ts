import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeWire, encodeWire, WireError } from '../../../shared/contract/wire';
import { validateArgs } from '../../../shared/contract/validate';
import { STUDIO_INVOKE_METHODS } from '../../../shared/contract/studioApi';

describe('wire format', () => {
  it('carries bytes raw beside the JSON and restores them exactly', () => {
    const motion = new Uint8Array(100_003).map((_, i) => (i * 7) & 0xff);
    const value = [{ avatar: { kind: 'builtin', id: 'm' }, motion, motionName: 'walk', undoIndex: 3, view: { time: 1.5, list: [1, 'a', null] } }, new Uint8Array(0)];
    const encoded = encodeWire(value);
    // The bytes are not inflated: overhead is the JSON plus a few headers.
    expect(encoded.length).toBeLessThan(motion.length + 300);
    const back = decodeWire(encoded) as typeof value;
    expect(back[1]).toBeInstanceOf(Uint8Array);
    expect((back[0] as { motion: Uint8Array }).motion).toEqual(motion);
    expect(back).toEqual(value);
  });

  it('round-trips arbitrary JSON-like values with byte arrays', () => {
    const leaf = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 64 }));
    // The expectation marks byte arrays as {"\u0000bytes": [...]}; a generated dictionary may not use
    // that key (a plain `b` marker collided with generated {b: …} objects now and then).
    const MARK = '\u0000bytes';
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== '__bytes__' && k !== '__proto__' && k !== MARK), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (v) => {
        const back = decodeWire(encodeWire(v));
        expect(back).toEqual(
          JSON.parse(
            JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? { [MARK]: [...x] } : x)),
            (_k, x) => (x && typeof x === 'object' && MARK in x && Object.keys(x).length === 1 ? new Uint8Array(x[MARK]) : x),
          ),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('rejects malformed messages with WireError, never anything else', () => {
    const good = encodeWire([{ a: new Uint8Array([1, 2, 3]) }]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: good.length }), (at, byte, cut) => {
        const bad = good.slice(0, cut);
        if (at < bad.length) bad[at] = byte;
        try {
          decodeWire(bad);
        } catch (e) {
          expect(e).toBeInstanceOf(WireError);
        }
      }),
      { numRuns: 2000 },
    );
    expect(() => decodeWire(new TextEncoder().encode('{"json": "only"}'))).toThrow(WireError);
  });
});

describe('argument validation', () => {
  it('knows every invoke method', () => {
    for (const m of STUDIO_INVOKE_METHODS) expect(() => validateArgs(m, [])).not.toThrow(/unknown/);
  });

  it('names the method and field that is wrong', () => {
    expect(() => validateArgs('exportMotion', [{ bytes: 'abc', sourcePath: '/a.vmd' }])).toThrow('exportMotion argument 1.bytes must be bytes (Uint8Array)');
    expect(() => validateArgs('readFile', ['/a\0b'])).toThrow(/NUL/);
    expect(() => validateArgs('setCommands', [[{ id: 'x', label: 'X', menu: 'window' }]])).toThrow(/menu must be one of file, edit, view, help/);
    expect(() => validateArgs('setSettings', [{ bedroom: { pose: 'right', autoSec: 'soon' } }])).toThrow(/bedroom\.autoSec must be a finite number/);
    expect(() => validateArgs('getPlatform', ['extra'])).toThrow(/at most 0/);
    expect(() => validateArgs('openFolder', [undefined])).not.toThrow();
    expect(() => validateArgs('autosave', [{ avatar: { kind: 'file' }, motion: new Uint8Array(1), motionName: 'm', undoIndex: 0, view: {} }])).toThrow(/avatar\.path/);
  });
});
