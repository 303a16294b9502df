/**
 * Time and frames as the whole studio counts them (the kernel's, so panels, timeline, viewport and
 * shell agree): the frame of a time, the time of a frame, the playhead's snap, the last frame, and the
 * labels the transport, ruler and Frame box show.
 */

/** Frame number of time t at `fps` (nearest frame) and the time of a frame. */
export const frameOf = (t: number, fps: number) => Math.round(t * fps);
export const timeOfFrame = (frame: number, fps: number) => frame / fps;

/**
 * The time of the frame nearest t, inside [0, duration]: where a click puts the playhead (Alt frees
 * it) and where keys and markers made at the playhead go, so "frame 14" at 30 fps is 14/30 s, not
 * the 13.9 a click between frames would give (issue 27).
 */
export function snapToFrame(t: number, fps: number, duration: number): number {
  const snapped = fps > 0 ? timeOfFrame(frameOf(t, fps), fps) : t;
  return Math.min(Math.max(snapped, 0), duration);
}

/** The last whole frame of a motion of this duration (the Frame box's maximum). */
export const lastFrameOf = (duration: number, fps: number) => Math.max(0, Math.floor(duration * fps + 1e-6));

/** "00:01:23:12" style timecode (hours:minutes:seconds:frames) at fps. */
export function timecode(t: number, fps: number): string {
  const f = Math.max(0, frameOf(t, fps));
  const perSecond = Math.max(1, Math.round(fps));
  const frames = f % perSecond;
  const total = Math.floor(f / perSecond);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}:${pad(frames)}`;
}

/** "0:03.50" style label; minutes appear once the motion is a minute long or more. */
export function formatTime(t: number, step = 0.01): string {
  const decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
  const sign = t < 0 ? '-' : '';
  const a = Math.abs(t);
  const m = Math.floor(a / 60);
  const s = a - m * 60;
  const sText = s.toFixed(decimals).padStart(decimals ? decimals + 3 : 2, '0');
  return `${sign}${m}:${sText}`;
}
