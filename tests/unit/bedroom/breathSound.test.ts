/**
 * The breathing sound's loudness follows the chest: loudest where the chest moves fastest (the rig's
 * breath curve sin(2πt/T) has its steepest slope at phase 0 and 0.5), silent at the turning points,
 * awake or on a side (depth 0) and when muted; scaled by the volume. (Node has no AudioContext: the
 * loudness is computed the same, only not played.)
 */
import { describe, expect, it } from 'vitest';
import { BreathSound } from '../../../renderer/bedroom/breathSound';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { bedroomScene } from './nodeScene';

describe('breathing sound', () => {
  it('loudness follows the chest movement, depth, volume and mute', () => {
    const s = new BreathSound();
    s.volume = 1;
    const at = (phase: number, depth = 1) => (s.update({ phase, depth }), s.level);
    expect(at(0)).toBeCloseTo(at(0.5), 12);
    expect(at(0)).toBeGreaterThan(0.1);
    expect(at(0.25)).toBeLessThan(1e-12);
    expect(at(0.75)).toBeLessThan(1e-12);
    expect(at(0.1)).toBeLessThan(at(0.05));
    expect(at(0, 0)).toBe(0);
    s.volume = 0.5;
    expect(at(0)).toBeCloseTo(at(0.5), 12);
    const half = at(0);
    s.volume = 1;
    expect(at(0)).toBeCloseTo(2 * half, 12);
    s.muted = true;
    expect(at(0)).toBe(0);
  });

  it('the rig reports the breath it moves the chest with: full on the back asleep, none awake or on a side', async () => {
    const sc = await bedroomScene(makeMannequinVrm());
    sc.rig.update(1 / 60, { e: 0, lb: 0 });
    expect(sc.rig.breath().depth).toBe(0);
    sc.rig.update(1 / 60, { e: 1, lb: 0 });
    expect(sc.rig.breath().depth).toBe(1);
    sc.rig.update(1 / 60, { e: 1, lb: 1 });
    expect(sc.rig.breath().depth).toBe(0);
    // The spine's offset is at its extreme where the sound is silent (phase 0.25), and moving fastest at phase 0.
    const spine = sc.vrm.humanoid.getNormalizedBoneNode('spine')!;
    const angleAt = (t: number) => {
      const r = sc.rig as unknown as { time: number };
      r.time = t - 1 / 60;
      sc.rig.update(1 / 60, { e: 1, lb: 0 });
      return spine.quaternion.x;
    };
    const period = 4.2;
    const slope0 = Math.abs(angleAt(0.01 * period) - angleAt(0));
    const slopeTurn = Math.abs(angleAt(0.26 * period) - angleAt(0.25 * period));
    expect(slope0).toBeGreaterThan(10 * slopeTurn);
  });
});
