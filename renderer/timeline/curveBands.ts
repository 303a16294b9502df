/**
 * The curve view's bands, kept per track and settings: a band is the optimize edit run on the one
 * track (curveBand.ts). A long track's runs in a worker (curveBandWorker.ts), the curve showing no
 * band until it comes (`redraw` then draws it): one track of the hour at 120 fps is ~100 ms of
 * optimize, a task the page would run on every settings change and for every curve shown.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import { withChannels } from '../../shared/motion/types';
import { JobRpc } from '../workers/jobs';
import { compactChannels } from '../workers/compactChannels';
import { WorkerFailedError } from '../../shared/rpc/rpcCalls';
import type { CurveChannel } from './curveData';
import { bandOfKept, optimizerBand, type Band, type BandTolerances } from './curveBand';
import type { BandReply, BandRequest } from './curveBandProtocol';

/** From this many keys a track's band is measured in the worker (optimize: ~14 ms at 36,001 keys, ~100 ms at 432,001). */
export const OFF_THREAD_BAND_KEYS = 100_000;

/** How a band is measured: the optimize edit as the panel would run it (its values and IN/OUT). */
export interface BandRun {
  readonly motion: Motion;
  readonly tolerances: BandTolerances;
  readonly given: Readonly<Record<string, number | boolean>>;
  readonly range?: { readonly from: number; readonly to: number };
  /** The edit run in the page on a motion of the one track. */
  readonly reduce: (m: Motion) => Motion;
}

export class CurveBands {
  private readonly cache = new WeakMap<Channel, { key: string; band: Band | null }>();
  /** The settings key each track's band is being measured for in the worker. */
  private readonly pending = new WeakMap<Channel, string>();
  private readonly rpc = new JobRpc<BandRequest, BandReply>(() => new Worker(new URL('./curveBandWorker.ts', import.meta.url), { type: 'module', name: 'curve-band' }), 'curve band');

  constructor(private readonly redraw: () => void) {}

  /** The band of `curve` at the settings `key`; null while a long track's is measured, or where the optimizer refuses them. */
  get(curve: CurveChannel, key: string, run: () => BandRun): Band | null {
    const channel = curve.channel;
    const hit = this.cache.get(channel);
    if (hit?.key === key) return hit.band;
    if (channel.times.length < OFF_THREAD_BAND_KEYS || !this.rpc.available) return this.inPage(curve, key, run());
    if (this.pending.get(channel) === key) return null;
    this.pending.set(channel, key);
    const r = run();
    const [sent] = compactChannels([channel]) as Channel[];
    this.rpc.call({ edit: 'optimize', motion: withChannels(r.motion, [sent]), given: r.given, ...(r.range ? { range: r.range } : {}) }).then(
      (reply) => this.done(curve, key, () => bandOfKept(r.motion, curve, r.tolerances, reply.kept)),
      (e) => this.done(curve, key, () => (e instanceof WorkerFailedError ? this.inPage(curve, key, r) : null)),
    );
    return null;
  }

  private inPage(curve: CurveChannel, key: string, r: BandRun): Band | null {
    let band: Band | null = null;
    try {
      band = optimizerBand(r.motion, curve, r.tolerances, r.reduce);
    } catch {
      band = null; // settings the optimizer refuses (the panel says why when run): no band
    }
    this.cache.set(curve.channel, { key, band });
    return band;
  }

  private done(curve: CurveChannel, key: string, band: () => Band | null): void {
    // Settings changed meanwhile: a newer request owns the track.
    if (this.pending.get(curve.channel) !== key) return;
    this.pending.delete(curve.channel);
    let b: Band | null = null;
    try {
      b = band();
    } catch {
      b = null;
    }
    this.cache.set(curve.channel, { key, band: b });
    this.redraw();
  }

  dispose(): void {
    this.rpc.dispose();
  }
}
