/**
 * Which pose fills each lying slot: the built-in back and side poses, or the user's files (picked in
 * the panel or listed from the opened folders), each asked for the slot it fills; the left side is
 * always the mirror of whatever fills the side slot. Files that can be read again (paths from the
 * opened folders) are remembered in the settings by slot; a file that cannot be read any more falls
 * back to the built-in pose with a message.
 */
import type { VRM } from '@pixiv/three-vrm';
import type { PoseSlot } from '../../shared/contract/bedroomSettings';
import type { BedroomRig } from './bedroomRig';
import type { BedroomContext } from './context';
import { leftFromSide, poseFromFile, type BuiltInPoses, type PoseMotion } from './poseSources';
import { t } from '../../shared/i18n';
import { slotWords } from './words';

/** What the report calls a built-in pose, in the current language. */
export function builtInLabel(slot: PoseSlot): string {
  return t(slot === 'back' ? 'bedroom.label.builtInBack' : 'bedroom.label.builtInSide');
}

/** A path's last part: what the status and report call a pose file. */
export function fileLabel(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export interface PoseFileResult {
  readonly ok: boolean;
  /** The answer for the status line (rendered in the current language). */
  readonly message: () => string;
  /** Whether to remember `path` for the slot (false: forget any remembered file there). */
  readonly remember: boolean;
}

export class PoseFiles {
  private disposed = false;

  constructor(
    private readonly ctx: BedroomContext,
    private readonly vrm: VRM,
    private readonly rig: BedroomRig,
    private readonly builtIns: BuiltInPoses,
  ) {}

  /** Put a pose into a slot (the side slot also makes the left side, its mirror). */
  async install(slot: PoseSlot, pose: PoseMotion, label: string): Promise<void> {
    if (slot === 'back') {
      this.rig.setPose('back', pose.clip, label, pose.motion);
    } else {
      const left = await leftFromSide(pose, this.vrm);
      if (this.disposed) return;
      this.rig.setPose('right', pose.clip, label, pose.motion);
      this.rig.setPose('left', left.clip, t('bedroom.label.mirrored', { label }), left.motion);
    }
  }

  installBuiltIn(slot: PoseSlot): Promise<void> {
    return this.install(slot, this.builtIns[slot], builtInLabel(slot));
  }

  /**
   * Install a user's pose file (`name` is a file name or, from the folders, a full path); on failure
   * the slot gets its built-in pose back.
   */
  async useFile(name: string, bytes: Uint8Array | null, slot: PoseSlot, readError?: string): Promise<PoseFileResult> {
    const label = fileLabel(name);
    try {
      if (!bytes) throw new Error(readError ?? t('bedroom.file.missing', { file: label }));
      const pose = await poseFromFile(name, bytes, this.vrm);
      if (this.disposed) return { ok: false, message: () => '', remember: false };
      await this.install(slot, pose, label);
      // Remember the file only where it can be read again next time (a file picked in a browser
      // is known by name only); otherwise every visit would start with a "missing file" message.
      return { ok: true, message: () => t('bedroom.msg.nowPose', { file: label, slot: slotWords(slot) }), remember: await this.canReadAgain(name) };
    } catch (e) {
      if (!this.disposed) await this.installBuiltIn(slot);
      const detail = (e as Error).message;
      return { ok: false, message: () => t('bedroom.msg.fallback', { detail, slot: slotWords(slot) }), remember: false };
    }
  }

  /** A remembered or listed pose file, read through the studio (paths inside opened folders). */
  async usePath(path: string, slot: PoseSlot): Promise<PoseFileResult> {
    const label = fileLabel(path);
    if (!this.ctx.readUserFile) return this.useFile(path, null, slot, t('bedroom.file.cannotRead', { file: label }));
    let bytes: Uint8Array | null = null;
    let err: string | undefined;
    try {
      bytes = await this.ctx.readUserFile(path);
    } catch (e) {
      err = t('bedroom.file.readFailed', { file: label, detail: (e as Error).message });
    }
    return this.useFile(path, bytes, slot, err);
  }

  private async canReadAgain(name: string): Promise<boolean> {
    if (!this.ctx.readUserFile) return false;
    try {
      return (await this.ctx.readUserFile(name)).length > 0;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.disposed = true;
  }
}
