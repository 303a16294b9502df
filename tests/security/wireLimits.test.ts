/**
 * Issue 16, finding 2: one authenticated request could end the browser host. decodeWire made one
 * Uint8Array per 4-byte block with no count limit and no JSON limit, under a 512 MB body limit for
 * every call (100 MB of empty blocks: "Reached heap limit"). Now: at most MAX_WIRE_BLOCKS blocks and
 * never more than the JSON references, a JSON part of at most MAX_WIRE_JSON_BYTES, bodies limited by
 * method (1 MB for small calls), and motion uploads held in memory together under one gate.
 * (Memory and latency under load: bench/hostLoad.bench.ts.)
 */
import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire, MAX_WIRE_BLOCKS, MAX_WIRE_JSON_BYTES, WireError } from '../../shared/contract/wire';
import { ByteGate } from '../../main/host/byteGate';
import { call, decoded, raw } from './hostClient';
import { useHostServer } from './hostServerFixture';

/** "VRW1", a JSON part, then `blocks` empty byte blocks (4 bytes each). */
function message(json: string, blocks: number): Uint8Array {
  const j = new TextEncoder().encode(json);
  const jsonPadded = (j.length + 3) & ~3;
  const out = new Uint8Array(8 + jsonPadded + blocks * 4);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x31575256, true);
  dv.setUint32(4, j.length, true);
  out.set(j, 8);
  return out;
}

describe('security: bounded wire decoding and request bodies (finding 2)', () => {
  it('refuses more byte blocks than the JSON references, and more than MAX_WIRE_BLOCKS', () => {
    const blocks = 100_000;
    let outcome: string;
    try {
      decodeWire(message('[]', blocks));
      outcome = `decoded ${blocks} unreferenced blocks`;
    } catch (e) {
      outcome = e instanceof WireError ? 'WireError' : String(e);
    }
    expect(outcome).toBe('WireError');
    expect(() => decodeWire(message('[]', 1))).toThrow(/1 byte blocks but 0 referenced/);
    expect(() => decodeWire(message('[]', (MAX_WIRE_BLOCKS ?? 64) + 1))).toThrow(WireError);
    // What the contract sends still decodes: one referenced block.
    expect(decodeWire(encodeWire([{ bytes: new Uint8Array([1, 2, 3]) }]))).toEqual([{ bytes: new Uint8Array([1, 2, 3]) }]);
    expect(() => decodeWire(encodeWire([new Uint8Array(1), new Uint8Array(2)]))).not.toThrow();
  });

  it('refuses a JSON part larger than a few MB before decoding it', () => {
    const big = `[${' '.repeat(5 * 1024 * 1024)}]`;
    expect(() => decodeWire(message(big, 0))).toThrow(/JSON part of \d+ bytes is larger than/);
    expect(MAX_WIRE_JSON_BYTES).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('the gate keeps uploads in flight under its limit and serves every waiter', async () => {
    const gate = new ByteGate(640);
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await gate.acquire(50);
        peak = Math.max(peak, gate.bytesInFlight);
        await new Promise((r) => setTimeout(r, 5)); // an upload in progress: the others queue behind it meanwhile (the thing tested)
        release();
      }),
    );
    expect(peak).toBeLessThanOrEqual(640);
    expect(gate.bytesInFlight).toBe(0);
    // One request larger than the whole limit still runs (alone).
    const alone = await gate.acquire(10_000);
    expect(gate.bytesInFlight).toBe(10_000);
    alone();
  });

  describe('the host', () => {
    const env = useHostServer('vrma-sec-wire-');
    const post = (method: string, body: Uint8Array) =>
      raw(env.host.port, `/api/call/${method}`, { method: 'POST', headers: { 'X-VRMA-Token': env.host.token, 'Content-Length': String(body.length) }, body });

    it('limits the body of a small call to 1 MB, answers hostile bodies with 400 and keeps answering', async () => {
      const padded = post('getPlatform', message(`[${' '.repeat(2 * 1024 * 1024)}]`, 0));
      const blocks = post('getPlatform', message('[]', 200_000));
      const [p, b] = await Promise.all([padded, blocks]);
      expect(p.status).toBe(400);
      expect(decoded(p).error?.message).toMatch(/larger than 1048576 bytes/);
      expect(b.status).toBe(400);
      const ok = await call(env.host, 'getPlatform', []);
      expect(ok.status).toBe(200);
      expect(decoded(ok).value.host).toBe('browser');
    });
  });
});
