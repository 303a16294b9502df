/**
 * One drag session for the gizmo, the IK handles, the gaze target and the expression sliders: a drag
 * pauses playback and holds the mixer off; its release records exactly one undo step, a failed edit
 * one notice and no step, and either way the avatar is posed from the motion again.
 */
import { describe, expect, it } from 'vitest';
import { DragSession, type DragStudio } from '../../../renderer/app/dragSession';
import { History } from '../../../renderer/app/history';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { setExpressionKey, expressionWeightAt } from '../../../shared/edits/expressionKeys';
import type { Motion } from '../../../shared/motion/types';
import type { MessageText } from '../../../renderer/ui/messages';

/** A studio with a real undo history of Motions; what the session asked of it is logged in order. */
function studioOf(motion: Motion) {
  const history = new History<Motion>(motion, 'Open');
  const log: string[] = [];
  const errors: string[] = [];
  const studio: DragStudio & { playing: boolean } = {
    playing: true,
    get motion() {
      return history.current;
    },
    clock: { time: 0.5 },
    preview: { invalidate: () => log.push('invalidate') },
    messages: { error: (text: MessageText) => errors.push(typeof text === 'function' ? text() : text) },
    setPlaying(p) {
      this.playing = p;
      log.push(`playing ${p}`);
    },
    commit(m, label) {
      history.push(m, label);
      log.push(`commit ${label}`);
    },
    seek: (t) => log.push(`seek ${t}`),
  };
  return { studio, history, log, errors };
}

/** One second of a turning upper arm at 30 fps. */
function rest(): Motion {
  const times = Float32Array.from({ length: 31 }, (_, i) => i / 30);
  const values = new Float32Array(31 * 4);
  for (let i = 0; i < 31; i++) values.set([Math.sin(i / 60), 0, 0, Math.cos(i / 60)], i * 4);
  return buildMotion({ rotations: { leftUpperArm: { times, values } }, generator: 'drag session test' });
}

describe('DragSession', () => {
  it('a drag pauses playback and is active until released; the release is one undo step with the edit', () => {
    const { studio, history, log, errors } = studioOf(rest());
    const session = new DragSession(studio);
    expect(session.active).toBe(false);
    session.begin();
    expect(session.active).toBe(true);
    expect(studio.playing).toBe(false);
    const before = history.length;
    session.end({ apply: (base) => setExpressionKey(base, 'happy', 0.5, 0.75), label: 'Key happy', done: () => 'keyed', failed: (d) => `failed: ${d}` });
    expect(errors).toEqual([]);
    expect(session.active).toBe(false);
    expect(history.length).toBe(before + 1);
    expect(expressionWeightAt(history.current, 'happy', 0.5)).toBeCloseTo(0.75, 6);
    // The edit is computed while the pose is still held; then the mixer is let go, the step recorded, the pose read again.
    expect(log).toEqual(['playing false', 'invalidate', 'commit Key happy', 'seek 0.5']);
  });

  it('a failed edit is one notice in its own words and no undo step; the pose is read again', () => {
    const { studio, history, log, errors } = studioOf(rest());
    const session = new DragSession(studio);
    session.begin();
    const before = history.length;
    // A gaze expression cannot be keyed as a weight: the core refuses it.
    session.end({ apply: (base) => setExpressionKey(base, 'lookUp', 0.5, 1), label: 'Key lookUp', done: () => 'keyed', failed: (d) => `failed: ${d}` });
    expect(history.length).toBe(before);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^failed: ./);
    expect(session.active).toBe(false);
    expect(log.at(-1)).toBe('seek 0.5');
    expect(log.some((l) => l.startsWith('commit'))).toBe(false);
  });

  it('a release with nothing to record (cancelled, back to the start) adds no step and lets the mixer go', () => {
    const { studio, history, log, errors } = studioOf(rest());
    const session = new DragSession(studio);
    session.begin();
    session.end(null);
    expect(history.length).toBe(1);
    expect(errors).toEqual([]);
    expect(session.active).toBe(false);
    expect(log).toEqual(['playing false', 'invalidate', 'seek 0.5']);
  });

  it('with a keyer (auto-key) the edit builds on its motion and goes to it, not straight into the history', () => {
    const { studio, history, log } = studioOf(rest());
    const session = new DragSession(studio);
    // An unkeyed pose already shown: the keyer's motion has happy at 0.25 at 0.5 s.
    const shown = setExpressionKey(history.current, 'happy', 0.5, 0.25);
    const keyed: { motion: Motion; label: string }[] = [];
    session.keyWith({ motion: shown, poseEdit: (m, label) => keyed.push({ motion: m, label }) });
    session.begin();
    session.end({ apply: (base) => setExpressionKey(base, 'sad', 0.5, 0.5), label: 'Key sad', done: () => 'keyed', failed: (d) => `failed: ${d}` });
    expect(history.length).toBe(1);
    expect(keyed.map((k) => k.label)).toEqual(['Key sad']);
    // Both weights: the edit was made on the shown pose, not on the document's.
    expect(expressionWeightAt(keyed[0].motion, 'happy', 0.5)).toBeCloseTo(0.25, 6);
    expect(expressionWeightAt(keyed[0].motion, 'sad', 0.5)).toBeCloseTo(0.5, 6);
    expect(log).toEqual(['playing false', 'invalidate', 'seek 0.5']);
  });
});
