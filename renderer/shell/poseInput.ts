/**
 * The viewport's pose input wired to the studio: the rotation and move gizmos (PoseEditor), the IK
 * handles and the gaze target. All three share one drag session (playback pauses and the mixer leaves
 * the held node alone while dragging; the avatar shows the motion again on release) and hand their edit
 * to auto-key (app/autoKey.ts), which keys it at the playhead or, with auto-key off, shows it until the
 * frame changes. The auto-key toggle is a command here (its button is in the transport bar).
 */
import type { Studio } from '../app/studio';
import { AutoKey } from '../app/autoKey';
import { PoseEditor } from '../pose/poseEditor';
import { applyDrag, poseDeltaFor } from '../pose/applyDrag';
import { IkHandles } from '../pose/ikHandles';
import { applyIk } from '../pose/applyIk';
import { LookAtTarget } from '../viewport/lookAtTarget';
import { setLookAtKey, type YawPitch } from '../../shared/edits/lookAtKeys';
import { frameOf } from '../app/frames';
import { errorText } from '../ui/messages';
import { formatNumber, t } from '../../shared/i18n';

export interface PoseInput {
  readonly poseEditor: PoseEditor;
  readonly ikHandles: IkHandles;
  readonly lookAtTarget: LookAtTarget;
}

/** Auto-key and its toggle command (Shift+K: K inserts a key; the toggle says which way it went). */
export function createAutoKey(studio: Studio): AutoKey {
  const autoKey = new AutoKey(studio);
  studio.commands.register({
    id: 'keys.autoKey',
    label: 'Auto-key',
    description: 'Key pose edits at the playhead',
    shortcuts: ['Shift+K'],
    menu: 'edit',
    isChecked: () => autoKey.enabled,
    run: () => {
      const on = !autoKey.enabled;
      autoKey.set(on);
      studio.messages.show('notice', () => t(on ? 'autoKey.on' : 'autoKey.off'), { group: 'autoKey' });
    },
  });
  return autoKey;
}

/** The gizmos, IK handles and gaze target, editing through `autoKey`; `liveGaze` shows the gaze while it is dragged. */
export function createPoseInput(studio: Studio, autoKey: AutoKey, liveGaze: (gaze: YawPitch | null) => void): PoseInput {
  // One drag session for the three: playback pauses, the mixer leaves the held node alone, and on release it poses again.
  const setDragging = (dragging: boolean) => {
    studio.dragging = dragging;
    if (dragging) studio.setPlaying(false);
    else studio.preview?.invalidate();
  };
  /** An edit made, or its failure reported; then the avatar shows the motion (the edited one, or the old one after a failure). */
  const edit = (make: () => void, failed: (detail: string) => string) => {
    try {
      make();
    } catch (e) {
      // Worded when shown (and again after a language switch).
      studio.messages.error(() => failed(errorText(e)));
    }
    studio.seek(studio.clock.time);
  };

  const poseEditor = new PoseEditor(studio.viewport, {
    select: (bone) => studio.select(bone),
    setDragging,
    commitDrag: (drag) => {
      const avatar = studio.avatar;
      if (!avatar) return;
      edit(() => {
        const req = poseDeltaFor(drag, avatar, studio.clock.time, studio.falloff);
        const rotate = drag.kind === 'rotate';
        autoKey.poseEdit(applyDrag(autoKey.motion, req), rotate ? t('studio.pose.rotate', { bone: drag.bone }) : t('studio.pose.moveHips'), () =>
          rotate ? t('studio.pose.rotated', { bone: drag.bone }) : t('studio.pose.movedHips'),
        );
      }, (detail) => t('studio.pose.failed', { detail }));
    },
  });
  studio.events.on('selection', (bone) => poseEditor.attach(bone));
  studio.events.on('avatar', (a) => poseEditor.setAvatar(a));

  // IK handles on the hands, feet and hips: a drag solves the limb and is one edit (issue 17).
  const ikHandles = new IkHandles(studio.viewport, {
    setDragging,
    commitIk: (effector, target) => {
      const avatar = studio.avatar;
      if (!avatar) return;
      edit(
        () => autoKey.poseEdit(applyIk(autoKey.motion, avatar, effector, target, studio.clock.time, studio.falloff), t('ik.drag', { bone: effector }), () => t('ik.dragged', { bone: effector })),
        (detail) => t('ik.failed', { detail }),
      );
    },
  });
  studio.events.on('avatar', (a) => ikHandles.setAvatar(a));

  // The gaze target in the viewport (issue 13): a drag keys the eyes' yaw and pitch at the playhead's frame.
  const lookAtTarget = new LookAtTarget(studio.viewport, {
    setDragging,
    live: liveGaze,
    commitGaze: (gaze) =>
      edit(() => {
        const frame = frameOf(studio.keyTime, studio.fps);
        const [yaw, pitch] = [gaze.yaw, gaze.pitch].map((v) => formatNumber(v, 1, 1));
        autoKey.poseEdit(setLookAtKey(autoKey.motion, studio.keyTime, gaze.yaw, gaze.pitch), t('expressions.gaze.undoLabel'), () => t('expressions.gaze.keyed', { yaw, pitch, frame }));
      }, (detail) => t('expressions.gaze.failed', { detail })),
  });
  studio.events.on('avatar', (a) => lookAtTarget.setAvatar(a));
  return { poseEditor, ikHandles, lookAtTarget };
}
