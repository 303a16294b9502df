/**
 * Which detected hand is the subject's left and which the right. MediaPipe Hands labels handedness as
 * if the image were a mirrored selfie, and a video or a webcam's raw stream is not mirrored; rather than
 * trust or swap the label, each hand goes to the body's wrist (the pose model's image landmarks) its
 * own wrist lies nearest, so a hand always sits on the arm the body solver gave it. A hand farther from
 * both wrists than `maxDistance` (image heights) is someone else's or a misdetection and is dropped.
 */
import { HAND_LANDMARK_COUNT, WRIST } from './handLandmarks';
import { LANDMARK_INDEX } from './landmarks';

export interface HandsBySide {
  readonly leftHand?: ArrayLike<number>;
  readonly rightHand?: ArrayLike<number>;
}

/** `hands`: each 21 image landmarks (63 numbers); `body`: the pose's 33 image landmarks; `aspect`: width / height. */
export function handsBySide(hands: readonly ArrayLike<number>[], body: ArrayLike<number>, aspect: number, maxDistance = 0.25): HandsBySide {
  const wrist = (flat: ArrayLike<number>, i: number) => [flat[i * 3] * aspect, flat[i * 3 + 1]] as const;
  const sides = { leftHand: wrist(body, LANDMARK_INDEX.leftWrist), rightHand: wrist(body, LANDMARK_INDEX.rightWrist) };
  const pairs: { hand: number; side: keyof HandsBySide; d: number }[] = [];
  hands.forEach((h, hand) => {
    if (h.length < HAND_LANDMARK_COUNT * 3) return;
    const [x, y] = wrist(h, WRIST);
    for (const side of ['leftHand', 'rightHand'] as const) pairs.push({ hand, side, d: Math.hypot(x - sides[side][0], y - sides[side][1]) });
  });
  // Nearest pairs first: two hands never take the same wrist, and each hand takes one side.
  pairs.sort((a, b) => a.d - b.d);
  const out: { leftHand?: ArrayLike<number>; rightHand?: ArrayLike<number> } = {};
  const used = new Set<number>();
  for (const p of pairs) {
    if (p.d > maxDistance || used.has(p.hand) || out[p.side]) continue;
    out[p.side] = hands[p.hand];
    used.add(p.hand);
  }
  return out;
}
