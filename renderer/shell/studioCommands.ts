/** The studio's commands: one definition each for the buttons, the keyboard and the desktop menu. */
import type { Studio } from '../app/studio';
import type { ExportFormat } from '../../shared/export/index';
import { chosenExportFormat } from '../app/exportFormat';
import { setIn, setOut } from '../app/range';
import { EDITS } from '../../shared/edits/registry';
import { AVATAR_EXTENSIONS, formatList, MOTION_EXTENSIONS } from '../../shared/formats/formats';
import { editDisabledReason, runEdit } from '../panels/editPanel';
import { recordFromWebcam, videoCapture } from '../app/capturedVideo';
import { t } from '../../shared/i18n';
import { errorText } from '../ui/messages';

export interface CommandHooks {
  openFile(): void;
  save(): Promise<void>;
  saveAs(): Promise<void>;
  exportCopy(): Promise<void>;
  exportAs(format: ExportFormat): Promise<void>;
  fitTimeline(): void;
}

export function registerStudioCommands(studio: Studio, hooks: CommandHooks): void {
  const r = studio.commands;
  const hasRange = () => studio.range !== null;
  let webcamBusy = false;
  r.register({ id: 'file.open', label: 'Open…', description: `Open an avatar (${formatList(AVATAR_EXTENSIONS)}) or a motion (${formatList(MOTION_EXTENSIONS)})`, shortcuts: ['Mod+O'], menu: 'file', run: hooks.openFile });
  r.register({ id: 'file.save', label: 'Save', description: 'Save the motion to its own .vrma (a converted motion: NAME.vrma beside its source, once)', shortcuts: ['Mod+S'], menu: 'file', run: hooks.save });
  r.register({ id: 'file.saveAs', label: 'Save As…', description: 'Save the motion as a new .vrma file, which the document then is', shortcuts: ['Mod+Shift+S'], menu: 'file', run: hooks.saveAs });
  r.register({
    id: 'file.recordWebcam',
    label: 'Record from webcam…',
    description: 'Record yourself with the webcam and capture the motion from the recording',
    shortcuts: ['Mod+Shift+R'],
    menu: 'file',
    isEnabled: () => videoCapture.capturer !== null && !webcamBusy,
    // Not awaited: the recording lasts until Stop, and the registry's other commands stay usable meanwhile.
    run: () => {
      webcamBusy = true;
      r.changed();
      void recordFromWebcam(studio)
        .catch((e) => studio.messages.error(() => t('capture.webcam.failed', { detail: errorText(e) })))
        .finally(() => {
          webcamBusy = false;
          r.changed();
        });
    },
  });
  r.register({ id: 'file.export', label: 'Export .vrma', description: 'Write a copy of the motion as a .vrma file (the document stays as it is)', shortcuts: ['Mod+Shift+E'], menu: 'file', run: hooks.exportCopy });
  r.register({ id: 'file.exportChosen', label: 'Export to format', description: 'Write the motion in the format chosen beside the button', menu: 'file', run: () => hooks.exportAs(chosenExportFormat(studio)) });
  r.register({ id: 'file.exportVmd', label: 'Export .vmd (MMD)', description: 'Write the motion as an MMD motion for the standard MMD bones', menu: 'file', run: () => hooks.exportAs('vmd') });
  r.register({ id: 'file.exportBvh', label: 'Export .bvh', description: 'Write the motion as BVH motion capture on a standard humanoid', menu: 'file', run: () => hooks.exportAs('bvh') });
  r.register({ id: 'file.exportGlb', label: 'Export .glb (on the avatar)', description: 'Write the avatar on screen with the motion baked on', menu: 'file', run: () => hooks.exportAs('glb') });
  r.register({ id: 'file.exportFbx', label: 'Export .fbx', description: 'Write the motion as binary FBX with Mixamo bone names', menu: 'file', run: () => hooks.exportAs('fbx') });
  r.register({
    id: 'edit.undo',
    label: 'Undo',
    description: 'Undo the last change',
    shortcuts: ['Mod+Z'],
    menu: 'edit',
    isEnabled: () => studio.history.canUndo,
    run: () => studio.undo(),
  });
  r.register({
    id: 'edit.redo',
    label: 'Redo',
    description: 'Redo the change you undid',
    shortcuts: ['Mod+Shift+Z', 'Mod+Y'],
    menu: 'edit',
    isEnabled: () => studio.history.canRedo,
    run: () => studio.redo(),
  });
  r.register({ id: 'playback.toggle', label: 'Play/Pause', description: 'Play or pause the preview', shortcuts: ['Space'], menu: 'view', run: () => studio.setPlaying(!studio.clock.playing) });
  r.register({ id: 'playback.stepBack', label: 'Previous frame', description: 'Step one frame back', shortcuts: ['ArrowLeft'], run: () => step(-1) });
  r.register({ id: 'playback.stepForward', label: 'Next frame', description: 'Step one frame forward', shortcuts: ['ArrowRight'], run: () => step(1) });
  r.register({ id: 'playback.start', label: 'Go to start', description: 'Go to the first frame', shortcuts: ['Home'], run: () => studio.seek(0) });
  r.register({ id: 'playback.end', label: 'Go to end', description: 'Go to the last frame', shortcuts: ['End'], run: () => studio.seek(studio.duration) });
  r.register({ id: 'range.in', label: 'Set IN', description: 'Start the range at the current time', shortcuts: ['I'], menu: 'edit', run: () => studio.setRange(setIn(studio.range, studio.clock.time, studio.duration)) });
  r.register({ id: 'range.out', label: 'Set OUT', description: 'End the range at the current time', shortcuts: ['O'], menu: 'edit', run: () => studio.setRange(setOut(studio.range, studio.clock.time, studio.duration)) });
  r.register({ id: 'range.clear', label: 'Clear range', description: 'Remove the IN/OUT range', shortcuts: ['Escape'], isEnabled: hasRange, run: () => studio.setRange(null) });
  // Every edit of the registry is a command `edit.<id>`, run with the edit panel's values.
  for (const def of EDITS) {
    r.register({ id: `edit.${def.id}`, label: def.label, description: def.summary, isEnabled: () => editDisabledReason(studio, def) === null, run: () => void runEdit(studio, def) });
  }
  const deleteEdit = EDITS.find((e) => e.id === 'delete')!;
  r.register({
    id: 'range.delete',
    label: 'Delete range',
    description: 'Remove the IN/OUT range, joining the rest with a blend',
    shortcuts: ['Delete'],
    menu: 'edit',
    isEnabled: hasRange,
    run: () => {
      if (runEdit(studio, deleteEdit)) studio.setRange(null);
    },
  });
  r.register({ id: 'view.frame', label: 'Frame avatar', description: 'Point the camera at the avatar', shortcuts: ['F'], menu: 'view', run: () => studio.frameAvatar() });
  r.register({ id: 'view.fitTimeline', label: 'Fit timeline', description: 'Show the whole motion on the timeline', menu: 'view', run: hooks.fitTimeline });

  function step(frames: number) {
    studio.setPlaying(false);
    studio.clock.step(frames, studio.fps);
    studio.seek(studio.clock.time);
  }
}
