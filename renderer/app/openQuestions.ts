import type { TakeInfo } from '../../shared/convert/takeInfo';

/**
 * Questions the studio asks while opening a file (in-page dialogs, renderer/panels/openQuestions.ts):
 * null answers Cancel, which keeps the current document.
 */
export interface OpenQuestions {
  /** An .fbx/.glb with several takes: the name of the take to open. */
  chooseTake(file: string, takes: readonly TakeInfo[]): Promise<string | null>;
  /** A VRM avatar that also carries animations: use it as the avatar or open its animations. */
  avatarOrMotion(file: string, animations: number): Promise<'avatar' | 'motion' | null>;
  /** A BVH cut short: open the `frames` of `total` frames that read? */
  partialBvh(file: string, frames: number, total: number): Promise<boolean>;
}
