/**
 * The slow lane for motion uploads, so small calls stay quick while large bodies arrive.
 *
 * On a 2-core machine 20 parallel 50 MB uploads read at full speed take both cores (the socket
 * copies in the kernel, the copy into the body buffer, the writes), and every small call then waits
 * behind them: 463 ms median for getPlatform, against 90 ms without uploads (bench/hostLoad.bench.ts).
 * Two things keep the host answering:
 *  - At most `maxBodies` bodies are read at once; the others are not read at all, so TCP holds their
 *    senders back and they cost nothing until their turn (FIFO).
 *  - Small calls go first: while small calls are being answered, or were within the last `quietMs`,
 *    a body reader waits before its next chunk (its socket is not read, so the sender waits too).
 *    Uploads are never starved: once a reader has waited `maxDeferMs` it reads for `sliceMs` regardless.
 * With nothing else to do, uploads run at full speed. A body whose sender has sent less than
 * `progressBytes` in `stallMs` no longer counts against `maxBodies` (it costs no CPU), so two stalled
 * senders, or two that trickle a byte every half second, cannot hold every other upload back until
 * the request timeout (issue 24, finding 8: a 1 KB save waited 119 s). The reader is told
 * (`onStall`), and the host then gives back its upload-gate reservation but for the bytes received
 * (byteGate.ts), so memory stays bounded by the gate and the gate is not held by a silent sender.
 */
export interface UploadLaneOptions {
  /** Bodies read at the same time. */
  readonly maxBodies?: number;
  /** How long after the last small call a body keeps waiting (ms). */
  readonly quietMs?: number;
  /** Longest a body reader waits for small calls before it reads anyway (ms). */
  readonly maxDeferMs?: number;
  /** How long it then reads before it yields again (ms). */
  readonly sliceMs?: number;
  /** A body that received less than progressBytes for this long (ms) stops counting against maxBodies. */
  readonly stallMs?: number;
  /** What a body must receive within stallMs to count as receiving. */
  readonly progressBytes?: number;
  /** Clock (tests). */
  readonly now?: () => number;
}

export const UPLOAD_LANE_DEFAULTS = { maxBodies: 2, quietMs: 10, maxDeferMs: 100, sliceMs: 10, stallMs: 1000, progressBytes: 16 * 1024 } as const;

export class UploadLane {
  private readonly maxBodies: number;
  private readonly quietMs: number;
  private readonly maxDeferMs: number;
  private readonly sliceMs: number;
  private readonly stallMs: number;
  private readonly progressBytes: number;
  private readonly now: () => number;
  private readonly holders = new Set<BodyReader>();
  private readonly queue: ((reader: BodyReader) => void)[] = [];
  private stallTimer: ReturnType<typeof setInterval> | null = null;
  private smallInFlight = 0;
  private lastSmallAt = -Infinity;

  constructor(opts: UploadLaneOptions = {}) {
    this.maxBodies = opts.maxBodies ?? UPLOAD_LANE_DEFAULTS.maxBodies;
    this.quietMs = opts.quietMs ?? UPLOAD_LANE_DEFAULTS.quietMs;
    this.maxDeferMs = opts.maxDeferMs ?? UPLOAD_LANE_DEFAULTS.maxDeferMs;
    this.sliceMs = opts.sliceMs ?? UPLOAD_LANE_DEFAULTS.sliceMs;
    this.stallMs = opts.stallMs ?? UPLOAD_LANE_DEFAULTS.stallMs;
    this.progressBytes = opts.progressBytes ?? UPLOAD_LANE_DEFAULTS.progressBytes;
    this.now = opts.now ?? (() => performance.now());
  }

  /** Bodies being read now (stalled ones included), and waiting for their turn. */
  get counts(): { reading: number; waiting: number } {
    return { reading: this.holders.size, waiting: this.queue.length };
  }

  /** A small call starts; call the returned function when it has been answered. */
  smallCall(): () => void {
    this.smallInFlight++;
    this.lastSmallAt = this.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.smallInFlight--;
      this.lastSmallAt = this.now();
    };
  }

  /** Waits for a body slot; resolves with the reader (its `pace` before each chunk, `end` when the body is read). */
  enter(): Promise<BodyReader> {
    if (this.queue.length === 0 && this.active() < this.maxBodies) return Promise.resolve(this.admit());
    const turn = new Promise<BodyReader>((go) => this.queue.push(go));
    this.watch();
    return turn;
  }

  /** While bodies are read or wait, look now and then for holders whose senders went quiet. */
  private watch(): void {
    this.stallTimer ??= setInterval(() => this.admitWaiting(), this.stallMs / 4);
    this.stallTimer.unref?.();
  }

  /**
   * Tells holders that stalled (once per stall), then lets waiting bodies in while fewer than
   * maxBodies holders are receiving (the timer calls it; tests too).
   */
  admitWaiting(): void {
    const t = this.now();
    for (const h of this.holders) if (t - h.lastChunkAt >= this.stallMs) h.stalled();
    while (this.queue.length > 0 && this.active() < this.maxBodies) this.queue.shift()!(this.admit());
    if (this.queue.length === 0 && this.holders.size === 0 && this.stallTimer) {
      clearInterval(this.stallTimer);
      this.stallTimer = null;
    }
  }

  private admit(): BodyReader {
    const reader = new BodyReader(this, this.now());
    this.holders.add(reader);
    this.watch();
    return reader;
  }

  /** Holders that received something within stallMs. */
  private active(): number {
    const t = this.now();
    let n = 0;
    for (const h of this.holders) if (t - h.lastChunkAt < this.stallMs) n++;
    return n;
  }

  /** @internal */
  leave(reader: BodyReader): void {
    this.holders.delete(reader);
    this.admitWaiting();
  }

  /** @internal True while small calls are being answered or were within the last quietMs. */
  smallCallsPending(): boolean {
    return this.smallInFlight > 0 || this.now() - this.lastSmallAt < this.quietMs;
  }

  /** @internal */
  get timing() {
    return { now: this.now, quietMs: this.quietMs, maxDeferMs: this.maxDeferMs, sliceMs: this.sliceMs, progressBytes: this.progressBytes };
  }
}

export class BodyReader {
  private ended = false;
  /** Since when this reader has been waiting for small calls (null: it is not waiting). */
  private deferredSince: number | null = null;
  /** Until when it reads without yielding (after a long wait). */
  private sliceUntil = -Infinity;
  /** Bytes received since lastChunkAt was last moved on. */
  private sinceProgress = 0;
  private stallTold = false;
  /** Called once when the sender stalls (again after each resumption); the host shrinks its gate reservation. */
  onStall: (() => void) | null = null;

  constructor(
    private readonly lane: UploadLane,
    /** When it last made progress (progressBytes received), or got its slot. */
    public lastChunkAt: number,
  ) {}

  /** @internal The lane saw no progress for stallMs. */
  stalled(): void {
    if (this.stallTold || this.ended) return;
    this.stallTold = true;
    this.onStall?.();
  }

  /**
   * Before each chunk of `bytes` (undefined: counts as progress): null to go on now, or a promise to
   * await first (small calls are being answered). Returning null on the fast path keeps a promise
   * per chunk off the hot loop.
   */
  pace(bytes?: number): Promise<void> | null {
    const { now, quietMs, maxDeferMs, sliceMs, progressBytes } = this.lane.timing;
    const t = now();
    this.sinceProgress += bytes ?? progressBytes;
    if (this.sinceProgress >= progressBytes) {
      this.lastChunkAt = t;
      this.sinceProgress = 0;
      this.stallTold = false;
    }
    if (t < this.sliceUntil || !this.lane.smallCallsPending()) {
      this.deferredSince = null;
      return null;
    }
    this.deferredSince ??= t;
    if (t - this.deferredSince >= maxDeferMs) {
      this.deferredSince = null;
      this.sliceUntil = t + sliceMs;
      return null;
    }
    return new Promise((go) => setTimeout(go, quietMs)).then(() => this.pace(0) ?? undefined);
  }

  /** The body is read (or abandoned): the next upload may start. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.lane.leave(this);
  }
}
