/**
 * A counting gate over bytes: uploads take their size before their body is read and give it back
 * when the call ends, so all uploads in flight together stay under `limit`. Waiters are served in
 * order; one request larger than the whole limit still runs, alone, so it is never starved.
 */
export class ByteGate {
  private inFlight = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];

  constructor(readonly limit: number) {}

  get bytesInFlight(): number {
    return this.inFlight;
  }

  /** Resolves with the release function once `bytes` fit. */
  async acquire(bytes: number): Promise<() => void> {
    if (this.waiting.length > 0 || !this.fits(bytes)) {
      await new Promise<void>((go) => this.waiting.push({ bytes, go }));
    } else {
      this.inFlight += bytes;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= bytes;
      this.pump();
    };
  }

  private fits(bytes: number): boolean {
    return this.inFlight === 0 || this.inFlight + bytes <= this.limit;
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].bytes)) {
      const next = this.waiting.shift()!;
      this.inFlight += next.bytes;
      next.go();
    }
  }
}
