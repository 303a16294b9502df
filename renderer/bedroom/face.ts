/**
 * The avatar's face in the bedroom, through its own expressions (presets, so VRM 0.x and 1.0 alike):
 * eyes closed while asleep (eased in as the body lies down, out as it gets up), a natural random
 * blink while awake, and a small smile when the head is patted. The pose clips carry bone tracks
 * only (see poseSources.ts boneTracksOnly), so nothing else writes these weights.
 */
import type { VRM } from '@pixiv/three-vrm';

const BLINK_SEC = 0.16;
const SMILE_SEC = 2.4;
const SMILE_WEIGHT = 0.4;

function smooth(u: number): number {
  const t = u <= 0 ? 0 : Math.min(u, 1);
  return t * t * (3 - 2 * t);
}

export class SleepFace {
  /** The blink weight set on the last update (0 open .. 1 closed). */
  blink = 0;
  /** The smile weight set on the last update. */
  smileWeight = 0;
  /** Tests only: hold the eyes at this blink weight (null: the face's own). */
  blinkOverride: number | null = null;
  private time = 0;
  private nextBlink: number;
  private blinkStart = -Infinity;
  private smileStart = -Infinity;
  private readonly hasBlink: boolean;
  private readonly hasHalves: boolean;
  private readonly hasHappy: boolean;

  constructor(
    private readonly vrm: VRM,
    private readonly random: () => number = Math.random,
  ) {
    const em = vrm.expressionManager;
    this.hasBlink = !!em?.getExpression('blink');
    this.hasHalves = !!em?.getExpression('blinkLeft') && !!em?.getExpression('blinkRight');
    this.hasHappy = !!em?.getExpression('happy');
    this.nextBlink = this.blinkGap();
  }

  /** Seconds until the next blink while awake: 2 to 6 s, as people do. */
  private blinkGap(): number {
    return 2 + 4 * this.random();
  }

  smile(): void {
    this.smileStart = this.time;
  }

  get smiling(): boolean {
    return this.time - this.smileStart < SMILE_SEC;
  }

  /** `e`: how far the body has lain down (0 standing .. 1 lying). Sets the weights; vrm.update applies them. */
  update(dt: number, e: number): void {
    this.time += dt;
    // Eyes close over the second half of lying down, and open over the first half of getting up.
    const closed = smooth((e - 0.4) / 0.6);
    if (closed === 0 && this.time >= this.nextBlink) {
      this.blinkStart = this.time;
      this.nextBlink = this.time + BLINK_SEC + this.blinkGap();
    }
    const u = (this.time - this.blinkStart) / BLINK_SEC;
    const pulse = u >= 0 && u < 1 ? Math.sin(Math.PI * u) : 0;
    this.blink = this.blinkOverride ?? Math.max(closed, pulse);
    const s = (this.time - this.smileStart) / SMILE_SEC;
    this.smileWeight = s >= 0 && s < 1 ? SMILE_WEIGHT * Math.sin(Math.PI * s) ** 2 : 0;
    const em = this.vrm.expressionManager;
    if (!em) return;
    if (this.hasBlink) em.setValue('blink', this.blink);
    else if (this.hasHalves) {
      em.setValue('blinkLeft', this.blink);
      em.setValue('blinkRight', this.blink);
    }
    if (this.hasHappy) em.setValue('happy', this.smileWeight);
  }

  /** The blink weight the avatar's expression manager holds now. */
  get appliedBlink(): number {
    const em = this.vrm.expressionManager;
    if (!em) return 0;
    return this.hasBlink ? (em.getValue('blink') ?? 0) : Math.min(em.getValue('blinkLeft') ?? 0, em.getValue('blinkRight') ?? 0);
  }

  /** Whether the avatar has the expressions the face needs. */
  get canCloseEyes(): boolean {
    return this.hasBlink || this.hasHalves;
  }
}
