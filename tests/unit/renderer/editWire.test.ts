/**
 * The edit worker's wire (renderer/app/editWire.ts), with the real structured clone between the two
 * sides: held channels go as indices, the result shares every channel, array and field the edit did
 * not replace with the page's own motion (as an edit run in the page would), the new arrays are the
 * ones listed for transfer, and an array the worker still holds is never transferred.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Channel, Motion } from '../../../shared/motion/types';
import { receiveMotion, receiveReply, replyMotion, sendMotion } from '../../../renderer/app/editWire';
import { optimize } from '../../../shared/edits/optimize';
import { smooth } from '../../../shared/edits/smooth';
import { readVrma } from '../../../shared/vrma/read';
import { FIXTURES_DIR, describeFixtures } from '../../../testkit/fixtures';
import { wavyMotion } from '../edits/editTestKit';

/** What crossing to a worker does to a message (and what transferring does to the sender's buffers). */
const cross = <T>(value: T, transfer: ArrayBuffer[] = []): T => structuredClone(value, { transfer });

function roundTrip(motion: Motion, edit: (m: Motion) => Motion, held: { page: Map<Channel, number>; worker: readonly Channel[] }) {
  const sent = cross(sendMotion(motion, held.page));
  const inWorker = receiveMotion(sent, held.worker);
  const out = edit(inWorker);
  const { motion: reply, transfer } = replyMotion(inWorker, out);
  return { sent, inWorker, out, reply, transfer, result: receiveReply(motion, cross(reply, transfer)) };
}

function expectSameData(a: Motion, b: Motion): void {
  expect(a.channels.length).toBe(b.channels.length);
  a.channels.forEach((c, i) => {
    const d = b.channels[i];
    expect([c.node, c.path]).toEqual([d.node, d.path]);
    expect(Array.from(c.times)).toEqual(Array.from(d.times));
    expect(Array.from(c.values)).toEqual(Array.from(d.values));
  });
}

describe('edit worker wire', () => {
  it("smooth: the result equals the edit run in the page; kept times and untouched fields are the page's own objects", () => {
    const motion = wavyMotion({ duration: 4, fps: 30 });
    const empty = { page: new Map<Channel, number>(), worker: [] as Channel[] };
    const r = roundTrip(motion, (m) => smooth(m, 0.05), empty);
    // Nothing held yet: every channel was sent as data.
    expect(r.sent.channels.every((c) => typeof c !== 'number')).toBe(true);
    expectSameData(r.result, smooth(motion, 0.05));
    // smooth keeps each track's times: on the page they are the source's arrays, not copies.
    r.result.channels.forEach((c, i) => expect(c.times).toBe(motion.channels[i].times));
    expect(r.result.rest).toBe(motion.rest);
    expect(r.result.humanoid).toBe(motion.humanoid);
    // The new value arrays were transferred (detached in the worker); the worker's held times were not.
    for (const c of r.out.channels) if (!r.inWorker.channels.includes(c)) expect(c.values.byteLength).toBe(0);
    for (const c of r.inWorker.channels) expect(c.times.byteLength).toBeGreaterThan(0);
  });

  it("a second request sends held channels as indices, and a channel the edit left alone comes back as the page's", () => {
    const motion = wavyMotion({ duration: 4, fps: 30 });
    const first = roundTrip(motion, (m) => m, { page: new Map(), worker: [] });
    const held = { page: new Map(motion.channels.map((c, i) => [c, i] as const)), worker: first.inWorker.channels };
    // Replace one channel in the page (as a committed edit would), then edit again.
    const changed: Channel = { ...motion.channels[2], values: motion.channels[2].values.map((v) => v * 0.5) };
    const next: Motion = { ...motion, channels: motion.channels.map((c, i) => (i === 2 ? changed : c)) };
    const r = roundTrip(next, (m) => ({ ...m, channels: m.channels.map((c, i) => (i === 0 ? { ...c, values: c.values.map((v) => -v) } : c)) }), held);
    expect(r.sent.channels.filter((c) => typeof c !== 'number')).toHaveLength(1);
    expect(r.reply.channels.filter((c) => typeof c !== 'number')).toHaveLength(1);
    r.result.channels.forEach((c, i) => {
      if (i === 0) {
        expect(c).not.toBe(next.channels[0]);
        expect(c.times).toBe(next.channels[0].times);
        expect(Array.from(c.values)).toEqual(Array.from(next.channels[0].values, (v) => -v));
      } else expect(c).toBe(next.channels[i]);
    });
    expect(() => receiveMotion(cross(sendMotion(next, new Map([[next.channels[0], 99]]))), held.worker)).toThrow(/does not hold channel 99/);
  });
});

describeFixtures('edit worker wire on real motions', () => {
  const read = (name: string) => readVrma(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrma', name))));
  it("optimize on idle_loop.vrma: the same keys as in the page; nop.vrma (nothing to drop): every track the page's own", () => {
    const idle = read('idle_loop.vrma');
    const r = roundTrip(idle, (m) => optimize(m), { page: new Map(), worker: [] });
    expectSameData(r.result, optimize(idle));
    expect(r.transfer.length).toBeGreaterThan(0);
    expect(r.result.gltf).toBe(idle.gltf);
    const nop = read('nop.vrma');
    const n = roundTrip(nop, (m) => optimize(m), { page: new Map(), worker: [] });
    expect(n.transfer).toEqual([]);
    n.result.channels.forEach((c, i) => expect(c).toBe(nop.channels[i]));
  });
});
