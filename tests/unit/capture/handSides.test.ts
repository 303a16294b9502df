/** Which detected hand is which (shared/capture/handSides): by the body's wrists, not MediaPipe's mirrored label. */
import { describe, expect, it } from 'vitest';
import { handsBySide } from '../../../shared/capture/handSides';
import { LANDMARK_INDEX, POSE_LANDMARK_COUNT } from '../../../shared/capture/landmarks';

/** 33 body image landmarks with the wrists at the given points (x, y in 0..1), everything else at the centre. */
function body(left: [number, number], right: [number, number]): number[] {
  const out: number[] = Array.from({ length: POSE_LANDMARK_COUNT * 3 }, (_, i) => (i % 3 === 2 ? 0 : 0.5));
  out.splice(LANDMARK_INDEX.leftWrist * 3, 2, ...left);
  out.splice(LANDMARK_INDEX.rightWrist * 3, 2, ...right);
  return out;
}
/** A hand of 21 landmarks whose wrist (landmark 0) is at (x, y); `tag` marks it. */
const hand = (x: number, y: number, tag: number) => [x, y, 0, ...Array.from({ length: 60 }, () => tag)];

describe('handsBySide', () => {
  // The subject's left wrist shows on the image's right (x 0.7), the right wrist on its left (x 0.3).
  const b = body([0.7, 0.4], [0.3, 0.45]);

  it('each hand goes to the wrist it lies nearest, in either order', () => {
    const l = hand(0.72, 0.38, 1), r = hand(0.28, 0.47, 2);
    expect(handsBySide([l, r], b, 4 / 3)).toEqual({ leftHand: l, rightHand: r });
    expect(handsBySide([r, l], b, 4 / 3)).toEqual({ leftHand: l, rightHand: r });
  });

  it('two hands near one wrist: the nearer takes it, the other the other wrist when near enough', () => {
    const a = hand(0.7, 0.41, 1), c = hand(0.6, 0.42, 2);
    expect(handsBySide([c, a], b, 4 / 3)).toEqual({ leftHand: a, rightHand: undefined });
    const far = body([0.7, 0.4], [0.55, 0.42]);
    expect(handsBySide([c, a], far, 4 / 3)).toEqual({ leftHand: a, rightHand: c });
  });

  it('a hand far from both wrists (0.25 image heights) is dropped; a short landmark list too', () => {
    expect(handsBySide([hand(0.5, 0.95, 1)], b, 4 / 3)).toEqual({});
    expect(handsBySide([[0.7, 0.4, 0]], b, 4 / 3)).toEqual({});
  });

  it('distances are in image heights: x is stretched by the aspect', () => {
    // 0.2 widths to the side of the left wrist: 0.27 heights at 4:3 (dropped), 0.2 at 1:1 (kept).
    const h = hand(0.9, 0.4, 1);
    expect(handsBySide([h], body([0.7, 0.4], [0.1, 0.4]), 4 / 3)).toEqual({});
    expect(handsBySide([h], body([0.7, 0.4], [0.1, 0.4]), 1)).toEqual({ leftHand: h });
  });
});
