/**
 * A counting gate over bytes: uploads take their size before their body is read and give it back
 * when the call ends, so all uploads in flight together stay under `limit`. Waiters are served in
 * order; one request larger than the whole limit still runs, alone, so it is never starved.
 *
 * A reservation can shrink and grow again (issue 24, finding 8): an upload whose sender stalls
 * keeps only the bytes it has really received, so a body that declared 300 MB and sent ten bytes
 * no longer makes a 1 KB save wait for its request timeout; when its data resumes it waits for the
 * rest of its size like any newcomer.
 */
export interface Reservation {
  /** Bytes this reservation holds now. */
  readonly bytes: number;
  /** Gives all of it back (idempotent). */
  release(): void;
  /** Gives back all but `bytes` at once (no effect when it holds fewer). */
  shrinkTo(bytes: number): void;
  /** Resolves once it holds `bytes` again (waiting in line with other uploads for the difference). */
  growTo(bytes: number): Promise<void>;
}

export class ByteGate {
  private inFlight = 0;
  /** `own`: what the waiter already holds (a reservation growing back), so an oversized one can run alone. */
  private readonly waiting: { bytes: number; own: number; go: () => void }[] = [];

  constructor(readonly limit: number) {}

  get bytesInFlight(): number {
    return this.inFlight;
  }

  /** Resolves with the release function once `bytes` fit. */
  async acquire(bytes: number): Promise<() => void> {
    const r = await this.reserve(bytes);
    return () => r.release();
  }

  /** Resolves with a reservation of `bytes` once they fit. */
  async reserve(bytes: number): Promise<Reservation> {
    await this.take(bytes);
    let held = bytes;
    let released = false;
    const gate = this;
    return {
      get bytes() {
        return released ? 0 : held;
      },
      release() {
        if (released) return;
        released = true;
        gate.give(held);
      },
      shrinkTo(n: number) {
        if (released || n >= held) return;
        gate.give(held - n);
        held = n;
      },
      async growTo(n: number) {
        if (released || n <= held) return;
        const more = n - held;
        await gate.take(more, held);
        if (released) gate.give(more);
        else held = n;
      },
    };
  }

  private async take(bytes: number, own = 0): Promise<void> {
    if (this.waiting.length > 0 || !this.fits(bytes, own)) await new Promise<void>((go) => this.waiting.push({ bytes, own, go }));
    else this.inFlight += bytes;
  }

  private give(bytes: number): void {
    this.inFlight -= bytes;
    this.pump();
  }

  private fits(bytes: number, own: number): boolean {
    return this.inFlight === own || this.inFlight + bytes <= this.limit;
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].bytes, this.waiting[0].own)) {
      const next = this.waiting.shift()!;
      this.inFlight += next.bytes;
      next.go();
    }
  }
}
