/**
 * What every exporter returns: the file's bytes and the report of what the format could not carry
 * (words through the catalogue's warning.export.*), plus the figures the CLI and the studio show.
 */
import type { Motion } from '../motion/types';
import type { MotionWarning } from '../warnings';

export interface ExportResult {
  readonly bytes: Uint8Array;
  /** What was left out, approximated or assumed. */
  readonly report: readonly MotionWarning[];
  /** Frames written (every format samples the motion on a fixed grid). */
  readonly frames: number;
  readonly fps: number;
}

/** One export format, as the format table plugs it in: its extension and its pure writer. */
export interface MotionExporter<O> {
  /** File extension without the dot. */
  readonly ext: string;
  write(motion: Motion, options?: O): ExportResult;
}
