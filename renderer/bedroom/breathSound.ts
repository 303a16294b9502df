/**
 * A soft sleeping-breath sound made with WebAudio (no audio files): filtered noise whose loudness
 * follows the airflow of the chest's breathing (the derivative of the rig's breath curve, so the
 * sound swells while the chest moves and is quiet at the turning points), brighter breathing in,
 * softer breathing out. Silent while awake or on a side (no breathing shows there), muted on request.
 * The AudioContext is made on the first user gesture (browsers refuse sound before one).
 */
export interface BreathInput {
  /** 0..1 over one breath (the rig's breath phase). */
  readonly phase: number;
  /** 0..1: how much of the breathing shows (0 awake or on a side). */
  readonly depth: number;
}

const PEAK_GAIN = 0.22;

export class BreathSound {
  private ctx: AudioContext | null = null;
  private gain: GainNode | null = null;
  private filter: BiquadFilterNode | null = null;
  private source: AudioBufferSourceNode | null = null;
  muted = false;
  volume = 0.5;
  /** The loudness asked on the last update (0 when silent), for tests. */
  level = 0;

  /** Call from a user gesture (Sleep, a click): makes the context, or resumes it. */
  unlock(): void {
    const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Ctor) return;
    if (!this.ctx) {
      try {
        this.ctx = new Ctor();
      } catch {
        return;
      }
      const ctx = this.ctx;
      const seconds = 2;
      const buffer = ctx.createBuffer(1, ctx.sampleRate * seconds, ctx.sampleRate);
      const data = buffer.getChannelData(0);
      // Pink-ish noise (one-pole low-passed white noise): breath, not hiss.
      let last = 0;
      for (let i = 0; i < data.length; i++) {
        last = 0.97 * last + 0.03 * (Math.random() * 2 - 1);
        data[i] = last * 6;
      }
      this.source = ctx.createBufferSource();
      this.source.buffer = buffer;
      this.source.loop = true;
      this.filter = ctx.createBiquadFilter();
      this.filter.type = 'bandpass';
      this.filter.frequency.value = 700;
      this.filter.Q.value = 0.7;
      this.gain = ctx.createGain();
      this.gain.gain.value = 0;
      this.source.connect(this.filter).connect(this.gain).connect(ctx.destination);
      this.source.start();
    }
    if (this.ctx.state === 'suspended') void this.ctx.resume().catch(() => {});
  }

  get running(): boolean {
    return this.ctx?.state === 'running';
  }

  update(b: BreathInput): void {
    const flow = Math.abs(Math.cos(2 * Math.PI * b.phase));
    this.level = this.muted ? 0 : b.depth * this.volume * PEAK_GAIN * flow ** 1.5;
    if (!this.ctx || !this.gain || !this.filter) return;
    const t = this.ctx.currentTime;
    this.gain.gain.setTargetAtTime(this.level, t, 0.05);
    // Breathing in (chest rising: the first half of the sine) is a little brighter than breathing out.
    const inhale = b.phase < 0.25 || b.phase >= 0.75;
    this.filter.frequency.setTargetAtTime(inhale ? 900 : 550, t, 0.2);
  }

  dispose(): void {
    try {
      this.source?.stop();
    } catch {
      /* never started */
    }
    void this.ctx?.close().catch(() => {});
    this.ctx = null;
  }
}
