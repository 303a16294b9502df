/** What `--list-takes` shows for one take. */
export interface TakeInfo {
  readonly name: string;
  /** Seconds from the take's first to its last frame. */
  readonly duration: number;
  readonly fps: number;
  /** Keys over all of the take's curves. */
  readonly keys: number;
}
