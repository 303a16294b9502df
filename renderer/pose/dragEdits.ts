/**
 * The edit each viewport drag records on release (app/dragSession.ts commits it as one undo step):
 * a gizmo ring or the hips' move gizmo (applyDrag.ts), an IK handle (applyIk.ts), the gaze target
 * (a lookAt key at the playhead's frame). Null: nothing to record (no avatar).
 */
import type { Vec3 } from '../../shared/motion/types';
import { setLookAtKey, type YawPitch } from '../../shared/edits/lookAtKeys';
import { t, formatNumber } from '../../shared/i18n';
import type { DragEdit } from '../app/dragSession';
import type { Studio } from '../app/studio';
import { frameOf } from '../app/frames';
import { applyDrag, poseDeltaFor } from './applyDrag';
import { applyIk, type IkEffector } from './applyIk';
import type { PoseDrag } from './poseEditor';

export function poseDragEdit(studio: Studio, drag: PoseDrag): DragEdit | null {
  const avatar = studio.avatar;
  if (!avatar) return null;
  const rotate = drag.kind === 'rotate';
  return {
    apply: (base) => applyDrag(base, poseDeltaFor(drag, avatar, studio.clock.time, studio.falloff)),
    label: rotate ? t('studio.pose.rotate', { bone: drag.bone }) : t('studio.pose.moveHips'),
    done: () => (rotate ? t('studio.pose.rotated', { bone: drag.bone }) : t('studio.pose.movedHips')),
    failed: (detail) => t('studio.pose.failed', { detail }),
  };
}

export function ikDragEdit(studio: Studio, effector: IkEffector, target: Vec3): DragEdit | null {
  const avatar = studio.avatar;
  if (!avatar) return null;
  return {
    apply: (base) => applyIk(base, avatar, effector, target, studio.clock.time, studio.falloff),
    label: t('ik.drag', { bone: effector }),
    done: () => t('ik.dragged', { bone: effector }),
    failed: (detail) => t('ik.failed', { detail }),
  };
}

export function gazeDragEdit(studio: Studio, gaze: YawPitch): DragEdit {
  const time = studio.keyTime;
  const frame = frameOf(time, studio.fps);
  const [yaw, pitch] = [gaze.yaw, gaze.pitch].map((v) => formatNumber(v, 1, 1));
  return {
    apply: (base) => setLookAtKey(base, time, gaze.yaw, gaze.pitch),
    label: t('expressions.gaze.undoLabel'),
    done: () => t('expressions.gaze.keyed', { yaw, pitch, frame }),
    failed: (detail) => t('expressions.gaze.failed', { detail }),
  };
}
