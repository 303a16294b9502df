/** The File menu's commands: open, save, record from the webcam, export (studioCommands.ts has the rest). */
import type { Studio } from '../app/studio';
import type { ExportFormat } from '../../shared/export/index';
import { chosenExportFormat } from '../app/exportFormat';
import { AVATAR_EXTENSIONS, formatList, MOTION_EXTENSIONS } from '../../shared/formats/formats';
import { recordFromWebcam, videoCapture } from '../app/capturedVideo';
import { t } from '../../shared/i18n';
import { errorText } from '../ui/messages';

/** What the shell does for these commands (the dialogs and writes live there). */
export interface FileCommandHooks {
  openFile(): void;
  save(): Promise<void>;
  saveAs(): Promise<void>;
  exportCopy(): Promise<void>;
  exportAs(format: ExportFormat): Promise<void>;
}

export function registerFileCommands(studio: Studio, hooks: FileCommandHooks): void {
  const r = studio.commands;
  let webcamBusy = false;
  r.register({
    id: 'file.open',
    label: 'Open…',
    description: `Open an avatar (${formatList(AVATAR_EXTENSIONS)}) or a motion (${formatList(MOTION_EXTENSIONS)})`,
    shortcuts: ['Mod+O'],
    menu: 'file',
    run: hooks.openFile,
  });
  r.register({
    id: 'file.save',
    label: 'Save',
    description: 'Save the motion to its own .vrma (a converted motion: NAME.vrma beside its source, once)',
    shortcuts: ['Mod+S'],
    menu: 'file',
    run: hooks.save,
  });
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
  r.register({
    id: 'file.export',
    label: 'Export .vrma',
    description: 'Write a copy of the motion as a .vrma file (the document stays as it is)',
    shortcuts: ['Mod+Shift+E'],
    menu: 'file',
    run: hooks.exportCopy,
  });
  r.register({
    id: 'file.exportChosen',
    label: 'Export to format',
    description: 'Write the motion in the format chosen beside the button',
    menu: 'file',
    run: () => hooks.exportAs(chosenExportFormat(studio)),
  });
  r.register({ id: 'file.exportVmd', label: 'Export .vmd (MMD)', description: 'Write the motion as an MMD motion for the standard MMD bones', menu: 'file', run: () => hooks.exportAs('vmd') });
  r.register({ id: 'file.exportBvh', label: 'Export .bvh', description: 'Write the motion as BVH motion capture on a standard humanoid', menu: 'file', run: () => hooks.exportAs('bvh') });
  r.register({ id: 'file.exportGlb', label: 'Export .glb (on the avatar)', description: 'Write the avatar on screen with the motion baked on', menu: 'file', run: () => hooks.exportAs('glb') });
  r.register({ id: 'file.exportFbx', label: 'Export .fbx', description: 'Write the motion as binary FBX with Mixamo bone names', menu: 'file', run: () => hooks.exportAs('fbx') });
}
