/** Messages between the page and the edit worker (editWorker.ts, longEdits.ts), inside the calls of workers/jobs.ts. */
import type { AvatarSkeleton } from '../../shared/avatar/avatarSkeleton';
import type { EditFigure } from '../../shared/edits/editReport';
import type { ParamValues } from '../../shared/edits/registry';
import type { Motion } from '../../shared/motion/types';
import type { TimeRange } from './range';
import type { ReplyMotion, SentMotion } from './editWire';

export interface EditRequest {
  /** The registry's edit id. */
  readonly edit: string;
  readonly motion: SentMotion;
  readonly given: Readonly<Record<string, number | boolean>>;
  readonly range?: { readonly from: number; readonly to: number };
  readonly time?: number;
  readonly avatar?: AvatarSkeleton;
  readonly other?: Motion;
  /** The studio's IN/OUT, mapped through an edit that moves time (the map is a function: it stays in the worker). */
  readonly studioRange: TimeRange | null;
}

export interface EditReply {
  readonly motion: ReplyMotion;
  readonly figures: readonly EditFigure[];
  readonly params: ParamValues;
  /** Present when the edit moved time: IN/OUT where the edit put them (null: cut away). */
  readonly range?: TimeRange | null;
}
