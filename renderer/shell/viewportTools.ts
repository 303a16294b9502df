/**
 * The viewport's editing tools: the pose editor (bone markers and gizmos), the IK handles and the
 * gaze target. The three drags share the studio's one drag session (app/dragSession.ts); each
 * records its own edit (pose/dragEdits.ts). H shows or hides the markers and the gaze target together.
 */
import type { Studio } from '../app/studio';
import type { Viewport } from '../viewport/viewport';
import type { YawPitch } from '../../shared/edits/lookAtKeys';
import { PoseEditor } from '../pose/poseEditor';
import { IkHandles } from '../pose/ikHandles';
import { gazeDragEdit, ikDragEdit, poseDragEdit } from '../pose/dragEdits';
import { LookAtTarget } from '../viewport/lookAtTarget';

export interface ViewportTools {
  readonly poseEditor: PoseEditor;
  readonly ikHandles: IkHandles;
  readonly lookAtTarget: LookAtTarget;
}

/** `gazePanel` shows the gaze live while its target is dragged (the expression panel). */
export function createViewportTools(studio: Studio, viewport: Viewport, gazePanel: { showLiveGaze(gaze: YawPitch | null): void }): ViewportTools {
  const poseEditor = new PoseEditor(viewport, { select: (bone) => studio.select(bone), drag: studio.drag, edit: (d) => poseDragEdit(studio, d) });
  studio.events.on('selection', (bone) => poseEditor.attach(bone));
  studio.events.on('avatar', (a) => poseEditor.setAvatar(a));
  // IK handles on the hands, feet and hips: a drag solves the limb and is one edit (issue 17).
  const ikHandles = new IkHandles(viewport, { drag: studio.drag, edit: (effector, target) => ikDragEdit(studio, effector, target) });
  studio.events.on('avatar', (a) => ikHandles.setAvatar(a));
  // The gaze target (issue 13): dragging it keys the gaze at the playhead.
  const lookAtTarget = new LookAtTarget(viewport, { drag: studio.drag, live: (gaze) => gazePanel.showLiveGaze(gaze), edit: (gaze) => gazeDragEdit(studio, gaze) });
  studio.events.on('avatar', (a) => lookAtTarget.setAvatar(a));
  return { poseEditor, ikHandles, lookAtTarget };
}

/** H: hide the bone markers (and the gaze target) for a clean preview (issue 13). */
export function registerMarkersCommand(studio: Studio, { poseEditor, lookAtTarget }: ViewportTools): void {
  studio.commands.register({
    id: 'view.toggleBoneMarkers',
    label: 'Show bone markers',
    description: 'Show or hide the bone markers for a clean preview',
    shortcuts: ['H'],
    menu: 'view',
    isChecked: () => poseEditor.markersVisible,
    run: () => {
      poseEditor.setMarkersVisible(!poseEditor.markersVisible);
      lookAtTarget.setVisible(poseEditor.markersVisible);
    },
  });
}
